import { z } from 'zod'
import { Email } from './common.ts'

/** POST createSellerReportLink: how long the seller's link works (a week by default, at most 90 days). */
export const CreateSellerReportLinkBody = z
  .object({
    expiresInDays: z.coerce
      .number({ error: 'expiresInDays must be a number of days' })
      .int('expiresInDays must be a whole number of days')
      .min(1, 'A link works for at least 1 day')
      .max(90, 'A link works for at most 90 days')
      .default(7),
    /** The seller, mailed once when the open house ends (decision 051); the listing agent's only. */
    sellerEmail: Email.optional(),
  })
  // Sent without a body: the defaults.
  .nullish()

/** The new link, shown once: only a hash of its token is kept. */
export const SellerReportLink = z.object({ url: z.string(), expiresAt: z.string() })
export type SellerReportLink = z.infer<typeof SellerReportLink>

/** Whether the open house has a working seller link (its address is never shown again). */
export const SellerReportLinkStatus = z.object({
  active: z.number().int(),
  expiresAt: z.string().nullable(),
  /**
   * The seller kept informed by the newest working link (decision 051): its address, whether the seller
   * unsubscribed, and when its one mail was written (null until the open house has ended).
   */
  seller: z
    .object({
      email: z.string().nullable(),
      unsubscribed: z.boolean(),
      mailedAt: z.string().nullable(),
    })
    .nullable(),
})
export type SellerReportLinkStatus = z.infer<typeof SellerReportLinkStatus>

const Count = z.object({ label: z.string(), count: z.number().int() })

/**
 * What the seller sees (GET /public/getSellerReport/{token}): counts, times and choices of the visitors,
 * average ratings of the home and comments with names, emails and phone numbers taken out. Never a
 * visitor's name or contact.
 */
export const SellerReport = z.object({
  openHouse: z.object({
    address: z.string(),
    scheduledDate: z.string().nullable(),
    scheduledStartTime: z.string(),
    scheduledEndTime: z.string(),
    openHouseTimezone: z.string(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    canceled: z.boolean(),
    /** Under way now: the page tells the seller it updates as visitors arrive. */
    live: z.boolean(),
    listingAgentName: z.string(),
  }),
  visitors: z.object({
    count: z.number().int(),
    withAgent: z.number().int(),
    withoutAgent: z.number().int(),
    /** Visitors who did not say. */
    agentUnknown: z.number().int(),
    heardAbout: z.array(Count),
    timelines: z.array(Count),
    /** One row per visit, earliest first: when, and the choices made (no one named). */
    visits: z.array(
      z.object({
        signedInAt: z.string(),
        heardAboutThisOpenHouse: z.string().nullable(),
        homeBuyingTimelines: z.string().nullable(),
        workingWithREAgent: z.boolean().nullable(),
      }),
    ),
  }),
  feedback: z.object({
    count: z.number().int(),
    /** Averages of the home's ratings (1–5, one decimal), only those someone gave. */
    ratings: z.array(z.object({ field: z.string(), average: z.number(), count: z.number().int() })),
    /** Written comments, anonymised, newest first. */
    comments: z.array(z.string()),
  }),
  expiresAt: z.string(),
  generatedAt: z.string(),
})
export type SellerReport = z.infer<typeof SellerReport>

/** POST setSellerReportEmail: the seller's address on the newest working link, or null to remove it. */
export const SetSellerReportEmailBody = z.object({ sellerEmail: Email.nullable() })
export type SetSellerReportEmailBody = z.infer<typeof SetSellerReportEmailBody>
