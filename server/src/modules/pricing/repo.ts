import type { Insertable, Updateable } from 'kysely'
import { compiledOnce } from '../../db/compiled-once.ts'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { PricingPlanPurchaseTable } from '../../db/types.ts'

const planColumns = [
  'id',
  'pricingPlanTitle',
  'pricingPlanCurrency',
  'pricingPlanPriceMonthly',
  'pricingPlanPriceAnnualDiscPerc',
  'numberOfOpenHousesCreate',
  'numberOfOpenHousesPublish',
  'numberOfOpenHousesHost',
  'numberOfTeamsCreate',
  'numberOfTeamMembersPerTeam',
  'numberOfProspectsManage',
  'pricingPlanFeature1',
  'pricingPlanFeature2',
  'pricingPlanFeature3',
  'pricingPlanFeature4',
  'pricingPlanFeature5',
  'pricingPlanFeature6',
] as const

export function createPricingRepo(db: Db) {
  // The public plans list, read by everyone choosing a plan: built once (compiled-once.ts).
  const offered = compiledOnce(db, 'offered-plans', () =>
    db.selectFrom('pricingPlan').select(planColumns).where('offered', '=', true).orderBy('sortOrder'),
  )
  return {
    listOffered() {
      return offered({})
    },

    offeredPlan(id: number) {
      return db
        .selectFrom('pricingPlan')
        .select(planColumns)
        .where('id', '=', id)
        .where('offered', '=', true)
        .executeTakeFirst()
    },

    planById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('pricingPlan').select(planColumns).where('id', '=', id).executeTakeFirstOrThrow()
    },

    /** The purchase in force now: active flag set and not past its end. */
    activePurchase(agentId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('pricingPlanPurchase')
        .selectAll()
        .where('reAgentId', '=', agentId)
        .where('pricingPlanActiveFlag', '=', true)
        .where('pricingPlanEndDate', '>', new Date())
        .orderBy('pricingPlanStartDate', 'desc')
        .executeTakeFirst()
    },

    purchaseById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('pricingPlanPurchase').selectAll().where('id', '=', id).executeTakeFirst()
    },

    deactivatePurchases(agentId: number, trx: Trx) {
      return trx
        .updateTable('pricingPlanPurchase')
        .set({ pricingPlanActiveFlag: false, updatedDate: new Date() })
        .where('reAgentId', '=', agentId)
        .where('pricingPlanActiveFlag', '=', true)
        .execute()
    },

    createPurchase(values: Insertable<PricingPlanPurchaseTable>, trx: Trx) {
      return trx.insertInto('pricingPlanPurchase').values(values).returningAll().executeTakeFirstOrThrow()
    },

    updatePurchase(id: number, values: Updateable<PricingPlanPurchaseTable>, trx: Trx) {
      return trx
        .updateTable('pricingPlanPurchase')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** What the plan's yearly limits are counted against, from SQL rather than kept counters. */
    async usage(agentId: number, since: Date, trx: Db | Trx = db) {
      const row = await trx
        .selectNoFrom((eb) => [
          eb
            .selectFrom('openHouse')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('listingReAgentId', '=', agentId)
            .where('createdDate', '>=', since)
            .as('created'),
          eb
            .selectFrom('openHouse')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('listingReAgentId', '=', agentId)
            .where('publishedAt', '>=', since)
            .where('publishLevel', '!=', 'Hosting Myself')
            .as('published'),
          eb
            .selectFrom('reTeam')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('createdByReAgentId', '=', agentId)
            .as('teams'),
        ])
        .executeTakeFirstOrThrow()
      return {
        totalCreatedOpenHouses: Number(row.created ?? 0),
        totalPublishedOpenHouses: Number(row.published ?? 0),
        totalCreatedTeams: Number(row.teams ?? 0),
      }
    },
  }
}

export type PricingRepo = ReturnType<typeof createPricingRepo>
export type PurchaseRow = NonNullable<Awaited<ReturnType<PricingRepo['purchaseById']>>>
