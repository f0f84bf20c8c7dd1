import { messages } from '@porchlight/shared'
import type { Trx } from '../../db/transaction.ts'
import { PlanLimitError } from '../../errors.ts'
import type { PricingService } from '../pricing/service.ts'

export async function assertCanCreate(pricing: PricingService, agentId: number, trx: Trx) {
  const usage = await pricing.utilization(agentId, trx)
  if (!usage) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
  if (usage.pricingPlanUtilization.totalCreatedOpenHouses >= usage.pricePlan.numberOfOpenHousesCreate) {
    throw new PlanLimitError('PLAN_LIMIT_OPEN_HOUSES', messages.openHouseLimitReached)
  }
}

export async function assertCanPublish(pricing: PricingService, agentId: number, trx: Trx) {
  const usage = await pricing.utilization(agentId, trx)
  if (!usage) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
  if (usage.pricingPlanUtilization.totalPublishedOpenHouses >= usage.pricePlan.numberOfOpenHousesPublish) {
    throw new PlanLimitError('PLAN_LIMIT_PUBLISH', messages.publishLimitReached)
  }
}
