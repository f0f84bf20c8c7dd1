import { z } from 'zod'

/**
 * /mystuff?activeSection= (SPEC §2); manageMyTeams is the Team Lead's only, firmMembers a verified Team
 * Lead's or Admin Team Member's.
 */
export const MY_STUFF_SECTIONS = [
  'myProfile',
  'manageMyTeams',
  'firmMembers',
  'myPricingPlan',
  'integrations',
  'notifications',
] as const

export const MyStuffSearch = z.object({
  activeSection: z.enum(MY_STUFF_SECTIONS).optional().catch(undefined),
})
