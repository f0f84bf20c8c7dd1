import {
  type Actor,
  completeAddress,
  mayViewProperty,
  type Property,
  type PropertyBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import { NotFoundError } from '../../errors.ts'
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
    async update(
      id: number,
      body: Partial<z.output<typeof PropertyBody>>,
      trx?: Db | Trx,
    ): Promise<Property> {
      return toProperty(await repo.update(id, body, trx))
    },
  }
}

export type PropertyService = ReturnType<typeof createPropertyService>
