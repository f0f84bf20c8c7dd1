import { type ExpressionBuilder, sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database } from '../../db/types.ts'

type Eb = ExpressionBuilder<Database, 'reInventory'>

/**
 * An open house of this inventory item (or, for one saved before items were linked, of its owner on its
 * property) that is still to come: not canceled and not over. A flexible date is still to come.
 */
function upcomingOpenHouse(eb: Eb) {
  return eb.exists(
    eb
      .selectFrom('openHouse')
      .select(sql`1`.as('one'))
      .where((oh) =>
        oh.or([
          oh('openHouse.reInventoryId', '=', oh.ref('reInventory.id')),
          oh.and([
            oh('openHouse.rePropertyId', '=', oh.ref('reInventory.rePropertyId')),
            oh('openHouse.listingReAgentId', '=', oh.ref('reInventory.owningReAgentId')),
          ]),
        ]),
      )
      .where('openHouse.openHouseCanceledFlag', '=', false)
      .where(
        sql<boolean>`not (
          (open_house.ends_at is not null and open_house.ends_at < now())
          or (open_house.ends_at is null and open_house.scheduled_date is not null
              and open_house.scheduled_date < (now() at time zone open_house.open_house_timezone)::date)
        )`,
      ),
  )
}

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
        .select((eb) => upcomingOpenHouse(eb).as('hasUpcomingOpenHouse'))
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
        .select((eb) => upcomingOpenHouse(eb).as('hasUpcomingOpenHouse'))
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
        .returning('id')
        .executeTakeFirstOrThrow()
    },
    /** Whether the item has an open house still to come (read inside the caller's transaction). */
    async hasUpcomingOpenHouse(id: number, trx: Db | Trx = db): Promise<boolean> {
      const row = await trx
        .selectFrom('reInventory')
        .select((eb) => upcomingOpenHouse(eb).as('upcoming'))
        .where('id', '=', id)
        .executeTakeFirst()
      return Boolean(row?.upcoming)
    },
    /** Holds the item's row until the transaction ends, so a schedule and an address edit take turns. */
    lock(id: number, trx: Trx) {
      return trx
        .selectFrom('reInventory')
        .select('id')
        .where('id', '=', id)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .forUpdate()
        .executeTakeFirst()
    },
    /**
     * Soft delete, only while the status still permits it and no open house is still to come: one
     * statement, no read-then-write.
     */
    softDelete(id: number, ownerId: number, permittedStatus: string) {
      return db
        .updateTable('reInventory')
        .set({ reInventoryPropertyDeleteFlag: true, updatedDate: new Date() })
        .where('id', '=', id)
        .where('owningReAgentId', '=', ownerId)
        .where('reInventoryPropertyDeleteFlag', '=', false)
        .where('reInventoryPropertyStatus', '=', permittedStatus as never)
        .where((eb) => eb.not(upcomingOpenHouse(eb)))
        .returning('id')
        .executeTakeFirst()
    },
  }
}

export type InventoryRepo = ReturnType<typeof createInventoryRepo>
export type InventoryRow = NonNullable<Awaited<ReturnType<InventoryRepo['getById']>>>
