import { z } from 'zod'
import { CancelReason, FLEXI_DATE, OpenHouseFor, PublishLevel, ScheduleTime, TimeSlot } from '../enums.ts'
import { OPEN_HOUSE_PERMISSIONS } from '../rules/policy.ts'
import { isValidTimeZone, zoneFormat } from '../rules/time-zones.ts'
import { Email, Flag, Id, IsoDate, OptionalText, OptionalWebUrl, whenValid } from './common.ts'
import { CustomQuestionSchema, CustomQuestionsInput } from './custom-question.ts'
import { Property } from './property.ts'

export const INSTRUCTIONS_LIMIT = 200

/** Today's calendar date in an IANA zone, 'YYYY-MM-DD'. */
export function todayIn(timeZone: string, now = new Date()): string {
  return zoneFormat(timeZone, 'date').format(now)
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** null, '' or the flexi label all mean "the host picks the date". */
const ScheduledDate = z
  .union([z.literal(FLEXI_DATE), z.literal(''), z.null(), IsoDate])
  .optional()
  .transform((v) => (v === FLEXI_DATE || v === '' || v === undefined ? null : v))

const scheduleShape = {
  rePropertyId: Id,
  listingREAgentId: Id.optional(),
  openHouseFor: OpenHouseFor,
  mlsId: OptionalText(40),
  listingURL: OptionalWebUrl(500),
  scheduledDate: ScheduledDate,
  scheduledStartTime: ScheduleTime,
  scheduledEndTime: ScheduleTime,
  openHouseTimezone: z.string().default('UTC').refine(isValidTimeZone, { error: 'Unknown time zone' }),
  openHousePreparationDate: IsoDate.nullish()
    .or(z.literal(''))
    .transform((v) => v || null),
  balloonsPutOutFlag: Flag.default(false),
  snackServedFlag: Flag.default(false),
  mealServedFlag: Flag.default(false),
  drinkServedFlag: Flag.default(false),
  openHouseInstructions: OptionalText(INSTRUCTIONS_LIMIT),
  publishLevel: PublishLevel,
  autoCloneOpenHouseFlag: Flag.default(false),
  /** A guest who agreed to email gets the agent's follow-up two days after the visit (issue 14). */
  followUpMailFlag: Flag.default(true),
  emailIdForSharingOHFeedback: Email.nullish()
    .or(z.literal(''))
    .transform((v) => v || null),
  openHouseCanceledFlag: Flag.optional(),
  reInventoryId: Id.nullish(),
  /** Absent keeps the questions as they are; a question sent with its id keeps that id. */
  customQuestions: CustomQuestionsInput.optional(),
}

type ScheduleLike = {
  scheduledDate: string | null
  scheduledStartTime: string
  scheduledEndTime: string
  openHouseTimezone: string
  openHousePreparationDate: string | null
}

const slotIndex = (t: string) =>
  TimeSlot.safeParse(t).success ? TimeSlot.options.indexOf(t as TimeSlot) : -1

/** SPEC §5: the start date no earlier than tomorrow, preparation no earlier than today (in the open house's zone). */
export function checkScheduleDates(s: ScheduleLike, ctx: z.RefinementCtx, now = new Date()) {
  const today = todayIn(s.openHouseTimezone, now)
  if (s.scheduledDate && s.scheduledDate < addDays(today, 1)) {
    ctx.addIssue({
      code: 'custom',
      path: ['scheduledDate'],
      message: 'Start date cannot be earlier than tomorrow',
    })
  }
  if (s.openHousePreparationDate && s.openHousePreparationDate < today) {
    ctx.addIssue({
      code: 'custom',
      path: ['openHousePreparationDate'],
      message: 'Preparation date cannot be earlier than today',
    })
  }
  const start = slotIndex(s.scheduledStartTime)
  const end = slotIndex(s.scheduledEndTime)
  if (start >= 0 && end >= 0 && end <= start) {
    ctx.addIssue({
      code: 'custom',
      path: ['scheduledEndTime'],
      message: 'End time must be after the start time',
    })
  }
}

const SCHEDULE_FIELDS = [
  'scheduledDate',
  'scheduledStartTime',
  'scheduledEndTime',
  'openHouseTimezone',
  'openHousePreparationDate',
]

export const SaveOpenHouseBody = z
  .object(scheduleShape)
  .superRefine((s, ctx) => checkScheduleDates(s, ctx), whenValid(...SCHEDULE_FIELDS))
export type SaveOpenHouseBody = z.input<typeof SaveOpenHouseBody>

/** The update-schedule form offers no flexible options: the claimer fixes date and times. */
export const UpdateScheduleBody = z
  .object({
    scheduledDate: IsoDate,
    scheduledStartTime: TimeSlot,
    scheduledEndTime: TimeSlot,
    openHouseTimezone: scheduleShape.openHouseTimezone,
  })
  .superRefine(
    (s, ctx) => checkScheduleDates({ ...s, openHousePreparationDate: null }, ctx),
    whenValid(...SCHEDULE_FIELDS),
  )
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBody>

export const CancelOpenHouseBody = z.object({
  openHouseId: Id,
  openHouseCancelReason: CancelReason,
  openHouseCanceledFlag: Flag.optional(),
  updatedDate: z.string().optional(),
})
export type CancelOpenHouseBody = z.input<typeof CancelOpenHouseBody>

export const OPEN_HOUSE_STATUSES = ['Canceled', 'Hosted', 'Not Hosted', 'Pick your own date'] as const
export type OpenHouseStatus = (typeof OPEN_HOUSE_STATUSES)[number]

export const OpenHouse = z.object({
  id: z.number().int(),
  rePropertyId: z.number().int(),
  listingREAgentId: z.number().int(),
  hostingREAgentId: z.number().int().nullable(),
  /** The listing agent, or the Team Lead / Admin Team Member who scheduled it for the listing agent. */
  scheduledByREAgentId: z.number().int(),
  openHouseFor: z.string(),
  mlsId: z.string().nullable(),
  listingURL: z.string().nullable(),
  scheduledDate: z.string().nullable(),
  scheduledStartTime: z.string(),
  scheduledEndTime: z.string(),
  openHouseTimezone: z.string(),
  openHousePreparationDate: z.string().nullable(),
  balloonsPutOutFlag: z.boolean(),
  snackServedFlag: z.boolean(),
  mealServedFlag: z.boolean(),
  drinkServedFlag: z.boolean(),
  openHouseInstructions: z.string().nullable(),
  publishLevel: z.string(),
  publishLevelId: z.string(),
  /** Offered to other agents (publishOpenHouseOpportunity was called). */
  published: z.boolean(),
  autoCloneOpenHouseFlag: z.boolean(),
  followUpMailFlag: z.boolean(),
  emailIdForSharingOHFeedback: z.string().nullable(),
  openHouseCanceledFlag: z.boolean(),
  openHouseCancelReason: z.string().nullable(),
  reInventoryId: z.number().int().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type OpenHouse = z.infer<typeof OpenHouse>

/** An open house with its supporting data (SPEC §3). */
export const OpenHouseDetails = OpenHouse.extend({
  reProperty: Property,
  listingREAgentName: z.string(),
  /** The listing agent's brokerage (its broker firm), which signs and ads of the listing name. */
  listingREAgentBrokerage: z.string(),
  hostingREAgentName: z.string().nullable(),
  scheduledByREAgentName: z.string(),
  status: z.enum(OPEN_HOUSE_STATUSES),
  /** What the caller may do with it (shared/src/rules/policy.ts): the web shows exactly these buttons. */
  permissions: z.array(z.enum(OPEN_HOUSE_PERMISSIONS)),
  /**
   * A copy an agent made with Clone (not the weekly auto-clone): the open house it copies and that one's
   * date (null when flexible), so the copy can say what it is ("Copy of Sat 12/5 open house").
   */
  copyOf: z
    .object({ id: z.number().int().nullable(), scheduledDate: z.string().nullable() })
    .nullable()
    .optional(),
  /** The visitors' questions, in order; only in the answer about one open house, never in lists. */
  customQuestions: z.array(CustomQuestionSchema).optional(),
})
export type OpenHouseDetails = z.infer<typeof OpenHouseDetails>

/** What the public guest pages may know: no agent or visitor contact data. */
/**
 * An edit may say which version of the open house it was made on: `If-Match` with the `updatedDate` the
 * form loaded. A claim, a publish or another edit since then answers 409 STALE with this text.
 */
export const OPEN_HOUSE_CHANGED = 'This open house changed since you opened it'
export const EditVersionHeaders = z.object({ 'if-match': z.string().max(100).optional() })

export const PublicOpenHouse = OpenHouse.pick({
  id: true,
  rePropertyId: true,
  openHouseFor: true,
  scheduledDate: true,
  scheduledStartTime: true,
  scheduledEndTime: true,
  openHouseTimezone: true,
  openHouseCanceledFlag: true,
  endsAt: true,
}).extend({
  reProperty: Property,
  listingREAgentName: z.string(),
  hostingREAgentName: z.string().nullable(),
  customQuestions: z.array(CustomQuestionSchema),
})
export type PublicOpenHouse = z.infer<typeof PublicOpenHouse>
