import { z } from 'zod'

/** /mystuff?activeSection= (SPEC §2); manageMyTeams is the Team Lead's only. */
export const MY_STUFF_SECTIONS = ['myProfile', 'manageMyTeams', 'myPricingPlan'] as const

export const MyStuffSearch = z.object({
  activeSection: z.enum(MY_STUFF_SECTIONS).optional().catch(undefined),
})
