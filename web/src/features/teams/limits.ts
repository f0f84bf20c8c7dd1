import { type PlanUtilization, withinTeamLimit } from '@porchlight/shared'

/** SPEC §5: a team may be created only while totalCreatedTeams < numberOfTeamsCreate. */
export function teamLimitReached({ pricePlan, pricingPlanUtilization }: PlanUtilization): boolean {
  return !withinTeamLimit(pricingPlanUtilization.totalCreatedTeams, pricePlan.numberOfTeamsCreate)
}
