import { canManageMyTeams } from './permissions.ts'
/** SPEC §9: 999999 stands for "no limit". */
export const UNLIMITED = 999999

export type PlanView = 'monthly' | 'annual'

/** Annual price = monthly × 12, reduced by the annual discount percentage, rounded. */
export function annualPrice(monthly: number, discountPercent: number): number {
  return Math.round(monthly * 12 * (1 - discountPercent / 100))
}

/** Price as a plan card shows it: 'Free' at zero, else dollars for USD. */
export function formatPrice(amount: number, currency: string): string {
  if (amount === 0) return 'Free'
  const formatted = Number.isInteger(amount) ? String(amount) : amount.toFixed(2)
  return currency === 'USD' ? `$${formatted}` : `${formatted} ${currency}`
}

/**
 * The create and publish counts are stored per year; the annual view divides them by 12
 * (SPEC §9 rule as written), the monthly view shows them as stored.
 */
export function displayCount(count: number, view: PlanView, divideInAnnualView: boolean): string {
  if (count >= UNLIMITED) return 'Unlimited'
  const shown = view === 'annual' && divideInAnnualView ? Math.round(count / 12) : count
  return String(shown)
}

/** The publish-request limit reads 'N/A' when the plan allows none. */
export function displayPublishCount(count: number, view: PlanView): string {
  if (count === 0) return 'N/A'
  return displayCount(count, view, true)
}

/**
 * Whether a plan is offered to an agent of `role`. Only a Team Lead creates teams (canManageMyTeams),
 * so a plan sold for its teams (teams to create, open houses still counted) is not offered to other
 * roles; a plan without teams, or one whose open houses are unlimited (the volume upgrade), is.
 * The plan an agent holds stays listed so that it can see it (decision 039).
 */
export function planOfferedTo(
  plan: { numberOfTeamsCreate: number; numberOfOpenHousesCreate: number },
  role: string,
): boolean {
  if (canManageMyTeams(role)) return true
  return plan.numberOfTeamsCreate === 0 || plan.numberOfOpenHousesCreate >= UNLIMITED
}
