import {
  type AddPlanBody,
  annualPrice,
  mayOwnPurchase,
  type PlanPurchase,
  type PlanUtilization,
  type PricingPlan,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { NotFoundError, PlanLimitError } from '../../errors.ts'
import type { PricingRepo, PurchaseRow } from './repo.ts'

type AddPlan = z.output<typeof AddPlanBody>

const DAY_MS = 24 * 60 * 60 * 1000
/** SPEC §9: a monthly plan lasts 30 days, a yearly one 365. */
const PERIOD_DAYS = { Monthly: 30, Yearly: 365 } as const
const YEAR_MS = 365 * DAY_MS

export function toPurchase(row: PurchaseRow): PlanPurchase {
  return {
    ...row,
    pricingPlanStartDate: new Date(row.pricingPlanStartDate).toISOString(),
    pricingPlanEndDate: new Date(row.pricingPlanEndDate).toISOString(),
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

function purchaseTerms(plan: PricingPlan, frequency: AddPlan['pricingPlanFrequency'], start = new Date()) {
  const totalReceivable =
    frequency === 'Monthly'
      ? plan.pricingPlanPriceMonthly
      : annualPrice(plan.pricingPlanPriceMonthly, plan.pricingPlanPriceAnnualDiscPerc)
  return {
    pricingPlanId: plan.id,
    pricingPlanFrequency: frequency,
    pricingPlanStartDate: start,
    pricingPlanEndDate: new Date(start.getTime() + PERIOD_DAYS[frequency] * DAY_MS),
    totalReceivable,
    totalPaid: 0,
    autoRenew: false,
    pricingPlanActiveFlag: true,
  }
}

export function createPricingService(db: Db, repo: PricingRepo) {
  async function offeredPlan(id: number) {
    const plan = await repo.offeredPlan(id)
    if (!plan) throw new NotFoundError('No such pricing plan')
    return plan
  }

  return {
    listOfferedPlans(): Promise<PricingPlan[]> {
      return repo.listOffered()
    },

    /** A new purchase replaces the one in force; the server sets dates and totals (SPEC §3). */
    async addPlan(agentId: number, body: AddPlan): Promise<PlanPurchase> {
      const plan = await offeredPlan(body.pricingPlanId)
      const row = await inTransaction(db, async (trx) => {
        await repo.deactivatePurchases(agentId, trx)
        return repo.createPurchase(
          { reAgentId: agentId, ...purchaseTerms(plan, body.pricingPlanFrequency) },
          trx,
        )
      })
      return toPurchase(row)
    },

    async changePlan(agentId: number, purchaseId: number, body: AddPlan): Promise<PlanPurchase> {
      const plan = await offeredPlan(body.pricingPlanId)
      const row = await inTransaction(db, async (trx) => {
        const purchase = await repo.purchaseById(purchaseId, trx)
        if (!purchase || !mayOwnPurchase({ id: agentId }, purchase)) throw new NotFoundError()
        await repo.deactivatePurchases(agentId, trx)
        return repo.updatePurchase(purchaseId, purchaseTerms(plan, body.pricingPlanFrequency), trx)
      })
      return toPurchase(row)
    },

    async activePlan(agentId: number): Promise<{ purchase: PlanPurchase; plan: PricingPlan } | null> {
      const purchase = await repo.activePurchase(agentId)
      if (!purchase) return null
      return { purchase: toPurchase(purchase), plan: await repo.planById(purchase.pricingPlanId) }
    },

    /** SPEC §3 plan utilisation; null without a plan in force. Yearly limits count the last 365 days. */
    /** `trx`: read inside the caller's transaction (PGlite has one connection; a second would wait forever). */
    async utilization(agentId: number, trx?: Db | Trx): Promise<PlanUtilization | null> {
      const purchase = await repo.activePurchase(agentId, trx)
      if (!purchase) return null
      const plan = await repo.planById(purchase.pricingPlanId, trx)
      return {
        pricePlan: {
          numberOfOpenHousesCreate: plan.numberOfOpenHousesCreate,
          numberOfOpenHousesPublish: plan.numberOfOpenHousesPublish,
          numberOfTeamsCreate: plan.numberOfTeamsCreate,
        },
        pricingPlanUtilization: await repo.usage(agentId, new Date(Date.now() - YEAR_MS), trx),
      }
    },

    async requireUtilization(agentId: number): Promise<PlanUtilization> {
      const utilization = await this.utilization(agentId)
      if (!utilization) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
      return utilization
    },
  }
}

export type PricingService = ReturnType<typeof createPricingService>
