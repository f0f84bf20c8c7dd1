import { completeAddress, FEEDBACK_RATING_GROUPS, type FeedbackRatingField } from '@porchlight/shared'
import { anonymiseComment } from '@porchlight/shared/rules/anonymise'
import type { SellerReport } from '@porchlight/shared/schemas/seller-report'
import type { SellerReportRepo } from './repo.ts'

/** The home's ratings, in form order: the hosting agent's own ratings are not the seller's business. */
const HOME_RATINGS: readonly FeedbackRatingField[] = [
  ...FEEDBACK_RATING_GROUPS.exterior,
  ...FEEDBACK_RATING_GROUPS.interior,
  ...FEEDBACK_RATING_GROUPS.other,
]

type OpenHouseRow = NonNullable<Awaited<ReturnType<SellerReportRepo['openHouse']>>>
type VisitRow = Awaited<ReturnType<SellerReportRepo['visits']>>[number]
type FeedbackRow = Awaited<ReturnType<SellerReportRepo['feedback']>>[number]

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

function counts(values: ReadonlyArray<string | null>): Array<{ label: string; count: number }> {
  const by = new Map<string, number>()
  for (const v of values) if (v) by.set(v, (by.get(v) ?? 0) + 1)
  return [...by].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count)
}

/** The report from its rows: counts and choices, averages, comments without names or contacts. */
export function buildSellerReport(
  oh: OpenHouseRow,
  visits: readonly VisitRow[],
  feedback: readonly FeedbackRow[],
  expiresAt: Date,
  now = new Date(),
): SellerReport {
  const names = [
    ...visits.flatMap((v) => [v.prospectFirstName, v.prospectMiddleName ?? '', v.prospectLastName]),
    oh.listingFirstName,
    oh.listingLastName,
    oh.hostFirstName ?? '',
    oh.hostLastName ?? '',
  ]
  const startsAt = iso(oh.startsAt)
  const endsAt = iso(oh.endsAt)
  const ratings = HOME_RATINGS.flatMap((field) => {
    const given = feedback.map((f) => f[field]).filter((r): r is number => r !== null)
    if (given.length === 0) return []
    const average = Math.round((given.reduce((a, b) => a + b, 0) / given.length) * 10) / 10
    return [{ field, average, count: given.length }]
  })
  return {
    openHouse: {
      address: completeAddress(oh),
      scheduledDate: oh.scheduledDate,
      scheduledStartTime: oh.scheduledStartTime,
      scheduledEndTime: oh.scheduledEndTime,
      openHouseTimezone: oh.openHouseTimezone,
      startsAt,
      endsAt,
      canceled: oh.openHouseCanceledFlag,
      live:
        !oh.openHouseCanceledFlag &&
        startsAt !== null &&
        endsAt !== null &&
        Date.parse(startsAt) <= now.getTime() &&
        now.getTime() < Date.parse(endsAt),
      listingAgentName: `${oh.listingFirstName} ${oh.listingLastName}`,
    },
    visitors: {
      count: visits.length,
      withAgent: visits.filter((v) => v.withAgent === true).length,
      withoutAgent: visits.filter((v) => v.withAgent === false).length,
      agentUnknown: visits.filter((v) => v.withAgent === null).length,
      heardAbout: counts(visits.map((v) => v.heardAboutThisOpenHouse)),
      timelines: counts(visits.map((v) => v.homeBuyingTimelines)),
      visits: visits.map((v) => ({
        signedInAt: new Date(v.signedInAt).toISOString(),
        heardAboutThisOpenHouse: v.heardAboutThisOpenHouse,
        homeBuyingTimelines: v.homeBuyingTimelines,
        workingWithREAgent: v.withAgent,
      })),
    },
    feedback: {
      count: feedback.length,
      ratings,
      comments: feedback
        .map((f) => f.feedbackText?.trim() ?? '')
        .filter((text) => text !== '')
        .map((text) => anonymiseComment(text, names)),
    },
    expiresAt: expiresAt.toISOString(),
    generatedAt: now.toISOString(),
  }
}
