import type { PricingPlan } from '@porchlight/shared'
import type { PricingRepo } from './repo.ts'

export function createPricingService(repo: PricingRepo) {
  return {
    listOfferedPlans(): Promise<PricingPlan[]> {
      return repo.listOffered()
    },
  }
}

export type PricingService = ReturnType<typeof createPricingService>
