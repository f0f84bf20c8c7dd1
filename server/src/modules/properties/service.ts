import { completeAddress, type Property, type PropertyBody } from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import { NotFoundError } from '../../errors.ts'
import type { PropertyRepo, PropertyRow } from './repo.ts'

export function toProperty(row: PropertyRow): Property {
  return {
    ...row,
    completePropertyAddress: completeAddress(row),
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

export function createPropertyService(repo: PropertyRepo) {
  return {
    async create(body: z.output<typeof PropertyBody>, trx?: Db | Trx): Promise<Property> {
      return toProperty(await repo.create(body, trx))
    },
    async get(id: number): Promise<Property> {
      const row = await repo.getById(id)
      if (!row) throw new NotFoundError()
      return toProperty(row)
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
