import { canSeeSearchOpenHouses } from '@porchlight/shared'
import { z } from 'zod'

/** /openhouses?activeSection= (SPEC §2). */
export const OPEN_HOUSE_SECTIONS = ['reInventory', 'upcomingOH', 'searchOH', 'pastOH'] as const

export const OpenHousesSearch = z.object({
  activeSection: z.enum(OPEN_HOUSE_SECTIONS).optional().catch(undefined),
  /** A team invitation's link: open the claim of this open house (or say who was quicker). */
  openHouseId: z.coerce.number().int().positive().optional().catch(undefined),
})

/** SPEC §6: the Team Lead role does not see Search Open Houses (the shared rule the server uses too). */
export const canSearchOpenHouses = canSeeSearchOpenHouses
