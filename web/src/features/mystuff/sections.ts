import { z } from 'zod'

/** /mystuff?activeSection= (SPEC §2); manageMyTeams joins when teams are built. */
export const MY_STUFF_SECTIONS = ['myProfile', 'myPricingPlan'] as const

export const MyStuffSearch = z.object({
  activeSection: z.enum(MY_STUFF_SECTIONS).optional().catch(undefined),
})
