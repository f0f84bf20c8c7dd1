import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'

export function createInventoryRepo(db: Db) {
  return {
    create(
      values: { owningReAgentId: number; rePropertyId: number; reInventoryPropertyStatus: string },
      trx: Db | Trx = db,
    ) {
      return trx
        .insertInto('reInventory')
        .values(values as never)
        .returningAll()
        .executeTakeFirstOrThrow()
    },
    getById(id: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('reInventory')
        .selectAll()
        .where('id', '=', id)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .executeTakeFirst()
    },
    /** Live inventory items that hold the property, whoever owns them. */
    holders(propertyId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('reInventory')
        .select(['id', 'owningReAgentId'])
        .where('rePropertyId', '=', propertyId)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .execute()
    },
    listByOwner(agentId: number) {
      return db
        .selectFrom('reInventory')
        .selectAll()
        .where('owningReAgentId', '=', agentId)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .orderBy('createdDate', 'desc')
        .execute()
    },
    setStatus(id: number, status: string, trx: Db | Trx = db) {
      return trx
        .updateTable('reInventory')
        .set({ reInventoryPropertyStatus: status as never, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },
    /** Soft delete, only while the status still permits it: one statement, no read-then-write. */
    softDelete(id: number, ownerId: number, permittedStatus: string) {
      return db
        .updateTable('reInventory')
        .set({ reInventoryPropertyDeleteFlag: true, updatedDate: new Date() })
        .where('id', '=', id)
        .where('owningReAgentId', '=', ownerId)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .where('reInventoryPropertyStatus', '=', permittedStatus as never)
        .returning('id')
        .executeTakeFirst()
    },
  }
}

export type InventoryRepo = ReturnType<typeof createInventoryRepo>
export type InventoryRow = NonNullable<Awaited<ReturnType<InventoryRepo['getById']>>>
