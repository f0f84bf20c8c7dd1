import {
  type Actor,
  completeAddress,
  mayViewProperty,
  type Property,
  PropertyBody,
  type PropertyFields,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import { NotFoundError, ValidationError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { PropertyRepo, PropertyRow } from './repo.ts'

export function toProperty(row: PropertyRow): Property {
  return {
    ...row,
    completePropertyAddress: completeAddress(row),
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

export function createPropertyService(repo: PropertyRepo, access: Access) {
  return {
    async create(agentId: number, body: z.output<typeof PropertyBody>, trx?: Db | Trx): Promise<Property> {
      return toProperty(await repo.create({ ...body, createdByReAgentId: agentId }, trx))
    },
    /** Within the domain (an item the caller already owns): no policy question left. */
    async get(id: number): Promise<Property> {
      const row = await repo.getById(id)
      if (!row) throw new NotFoundError()
      return toProperty(row)
    },
    /** Public while it has a published or hosted open house; otherwise its owners' only (404 to others). */
    async view(viewer: Actor | null, id: number): Promise<Property> {
      const facts = await access.propertyFacts(id)
      if (!facts || !mayViewProperty(viewer, facts)) throw new NotFoundError()
      return this.get(id)
    },
    async createdBy(id: number, agentId: number, trx?: Db | Trx): Promise<boolean> {
      const row = await repo.getById(id, trx)
      return row?.createdByReAgentId === agentId
    },
    /**
     * Corrects the address: the fields given replace the saved ones, and the result must pass the same
     * rules as a new property (a 422 names each field under `fieldPrefix`).
     */
    async correct(
      id: number,
      changes: Partial<z.output<typeof PropertyFields>>,
      trx?: Db | Trx,
      fieldPrefix = '',
    ): Promise<Property> {
      const row = await repo.getById(id, trx)
      if (!row) throw new NotFoundError()
      const { id: _id, createdByReAgentId: _by, createdDate: _c, updatedDate: _u, ...saved } = row
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
      const parsed = PropertyBody.safeParse({ ...saved, ...given })
      if (!parsed.success) {
        throw new ValidationError(
          parsed.error.issues.map((issue) => ({
            field: `${fieldPrefix}${issue.path.join('.')}`,
            message: issue.message,
          })),
        )
      }
      return toProperty(await repo.update(id, parsed.data, trx))
    },
  }
}

export type PropertyService = ReturnType<typeof createPropertyService>
