import { Id } from '@porchlight/shared'
import { z } from 'zod'

/** /prospects/search and /prospects/new: ?openHouseId=&rePropertyId= (SPEC §2 "Prospects"). */
export const ProspectOpenHouseSearch = z.object({
  openHouseId: Id.optional().catch(undefined),
  rePropertyId: Id.optional().catch(undefined),
})

export const prospectIdParams = {
  parse: ({ prospectId }: { prospectId: string }) => ({ prospectId: Id.parse(prospectId) }),
  stringify: ({ prospectId }: { prospectId: number }) => ({ prospectId: String(prospectId) }),
}
