import { z } from 'zod'

export const PricingPlan = z.object({
  id: z.number().int(),
  pricingPlanTitle: z.string(),
  pricingPlanCurrency: z.string(),
  pricingPlanPriceMonthly: z.number(),
  pricingPlanPriceAnnualDiscPerc: z.number(),
  numberOfOpenHousesCreate: z.number().int(),
  numberOfOpenHousesPublish: z.number().int(),
  numberOfOpenHousesHost: z.number().int(),
  numberOfTeamsCreate: z.number().int(),
  numberOfTeamMembersPerTeam: z.number().int(),
  numberOfProspectsManage: z.number().int(),
  pricingPlanFeature1: z.string().nullable(),
  pricingPlanFeature2: z.string().nullable(),
  pricingPlanFeature3: z.string().nullable(),
  pricingPlanFeature4: z.string().nullable(),
  pricingPlanFeature5: z.string().nullable(),
  pricingPlanFeature6: z.string().nullable(),
})
export type PricingPlan = z.infer<typeof PricingPlan>

export const PricingPlanList = z.object({ data: z.array(PricingPlan) })

export const AddPlanBody = z.object({
  pricingPlanId: z.coerce.number().int().positive(),
  reAgentId: z.coerce.number().int().positive(),
  pricingPlanFrequency: z.enum(['Monthly', 'Yearly']),
})
export type AddPlanBody = z.input<typeof AddPlanBody>

export const PlanPurchase = z.object({
  id: z.number().int(),
  pricingPlanId: z.number().int(),
  reAgentId: z.number().int(),
  pricingPlanFrequency: z.enum(['Monthly', 'Yearly']),
  pricingPlanStartDate: z.string(),
  pricingPlanEndDate: z.string(),
  totalReceivable: z.number(),
  totalPaid: z.number(),
  autoRenew: z.boolean(),
  pricingPlanActiveFlag: z.boolean(),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type PlanPurchase = z.infer<typeof PlanPurchase>
