import { HomeBuyingTimeline, Id, ProspectSort, ProspectStage } from '@porchlight/shared'
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

/** SPEC §9: tables page size 10, with the options 10, 15, 20, 25 and 30. */
export const PAGE_SIZES = [10, 15, 20, 25, 30] as const

/**
 * /prospects?q=&sort=&noRealtor=&timeline=&stage=&openHouseId=&page=&size=: the list's filters live in
 * the address, so a reload, the back button or a shared link shows the same list. Anything unreadable
 * falls back to the whole list, newest first.
 */
export const ProspectListSearch = z.object({
  q: z.string().max(80).optional().catch(undefined),
  sort: ProspectSort.optional().catch(undefined),
  noRealtor: z.boolean().optional().catch(undefined),
  timeline: HomeBuyingTimeline.optional().catch(undefined),
  stage: ProspectStage.optional().catch(undefined),
  openHouseId: Id.optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  size: z.coerce
    .number()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .optional()
    .catch(undefined),
})
export type ProspectListSearch = z.infer<typeof ProspectListSearch>

/** The filters as the API takes them (list and export); the defaults are left out. */
export function prospectFilterQuery(s: ProspectListSearch): URLSearchParams {
  const query = new URLSearchParams()
  if (s.q?.trim()) query.set('q', s.q.trim())
  if (s.sort && s.sort !== 'newest') query.set('sort', s.sort)
  if (s.noRealtor) query.set('noRealtor', 'true')
  if (s.timeline) query.set('timeline', s.timeline)
  if (s.stage) query.set('stage', s.stage)
  if (s.openHouseId) query.set('openHouseId', String(s.openHouseId))
  return query
}

/** The page of the list the search asks for, as limit and offset. */
export function pageOf(s: ProspectListSearch) {
  const size = s.size ?? PAGE_SIZES[0]
  const page = s.page ?? 1
  return { page, size, limit: size, offset: (page - 1) * size }
}
