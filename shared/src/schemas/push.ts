import { z } from 'zod'
import { isValidTimeZone } from '../rules/time-zones.ts'

/** What an agent may be told by push (decision 050); each agent chooses which. */
export const PUSH_EVENTS = [
  'offer.team',
  'offer.marketCenter',
  'offer.everyone',
  'claim.won',
  'claim.lost',
  'guest.signedIn',
  'feedback.received',
  'team.invitation',
  'firm.decision',
] as const
export type PushEvent = (typeof PUSH_EVENTS)[number]

/** Few, useful notifications: an offer to everyone is off until the agent turns it on. */
export const DEFAULT_PUSH_EVENTS: readonly PushEvent[] = PUSH_EVENTS.filter((e) => e !== 'offer.everyone')

export const PUSH_EVENT_LABELS: Record<PushEvent, string> = {
  'offer.team': 'An open house is offered to my team',
  'offer.marketCenter': 'An open house is offered to my market center',
  'offer.everyone': 'An open house is offered to everyone',
  'claim.won': 'I won a claim',
  'claim.lost': 'An open house I was offered was claimed by someone else',
  'guest.signedIn': 'A guest signs in at my open house while my board is closed',
  'feedback.received': 'Feedback arrives',
  'team.invitation': 'I am invited to a team',
  'firm.decision': 'My firm decides on my membership',
}

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${what} must be base64url` })
    // Decoded length without Buffer (the web uses this schema too).
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === bytes, {
      error: `${what} must be ${bytes} bytes`,
    })

/** The browser's PushSubscription, as its toJSON() gives it. */
export const SavePushSubscriptionBody = z.object({
  endpoint: z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: 'Not a push service address' })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64url(65, 'keys.p256dh'),
    auth: base64url(16, 'keys.auth'),
  }),
})

export const PushSubscriptionView = z.object({
  id: z.number(),
  /** The push service's origin only: the rest of the address is the browser's secret. */
  service: z.string(),
  createdDate: z.string(),
  lastSuccessAt: z.string().nullable(),
})

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'A time like 22:00' })

export const NotificationSettings = z.object({
  events: z
    .array(z.enum(PUSH_EVENTS, { error: 'Not an event Porchlight tells' }))
    .transform((events) => [...new Set(events)]),
  /** No notification between these times (the agent's own clock), except a won claim. */
  quietHours: z.object({ start: ClockTime, end: ClockTime }).nullable(),
  timeZone: z.string().refine(isValidTimeZone, { error: 'Not a time zone' }),
})

export const ClaimFromNotificationBody = z.object({
  claimToken: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, { error: 'Not a claim token' }),
})
