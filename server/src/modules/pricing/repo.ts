import type { Db } from '../../db/database.ts'

export function createPricingRepo(db: Db) {
  return {
    listOffered() {
      return db
        .selectFrom('pricingPlan')
        .select([
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
        ])
        .where('offered', '=', true)
        .orderBy('sortOrder')
        .execute()
    },
  }
}

export type PricingRepo = ReturnType<typeof createPricingRepo>
