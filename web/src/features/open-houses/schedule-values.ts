import { type CalendarDate, getLocalTimeZone, parseDate, today } from '@internationalized/date'
import { FLEXI_DATE, type OpenHouseDetails, type SaveOpenHouseBody, TimeSlot } from '@porchlight/shared'
import type { FieldErrors } from '../../ui/use-form.ts'
import { type QuestionDraft, questionDrafts, questionsInput } from './custom-questions-fields.tsx'

/** What the schedule form holds while it is edited. */
export type ScheduleFormValues = {
  listingREAgentId: string
  openHouseFor: string
  /** SPEC's 'Pick Your Own (Flexi Date)': the host picks the date when claiming. */
  flexiDate: boolean
  scheduledDate: CalendarDate | null
  scheduledStartTime: string
  scheduledEndTime: string
  openHousePreparationDate: CalendarDate | null
  balloonsPutOutFlag: boolean
  snackServedFlag: boolean
  mealServedFlag: boolean
  drinkServedFlag: boolean
  openHouseInstructions: string
  publishLevel: string
  autoCloneOpenHouseFlag: boolean
  followUpMailFlag: boolean
  emailIdForSharingOHFeedback: string
  mlsId: string
  listingURL: string
  /** The visitors' questions; null when the open house was loaded without them (left as they are). */
  customQuestions: QuestionDraft[] | null
}

export const SCHEDULE_REQUIRED_MESSAGES: FieldErrors<ScheduleFormValues> = {
  listingREAgentId: 'Listing agent is required',
  openHouseFor: 'Open house for is required',
  scheduledStartTime: 'Start time is required',
  scheduledEndTime: 'End time is required',
  publishLevel: 'Publish level is required',
}

/** The browser's IANA time zone (SPEC §7 "timezone from the browser"). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}

/** SPEC §5: the earliest start date is tomorrow; preparation no earlier than today. */
export const tomorrow = () => today(getLocalTimeZone()).add({ days: 1 })
export const todayDate = () => today(getLocalTimeZone())

/** Where the agent's last start and end times are kept on this device. */
const LAST_TIMES_KEY = 'porchlight:schedule-times'
/** Most open houses run on a weekend afternoon. */
export const DEFAULT_TIMES = { start: '1:00 PM', end: '4:00 PM' } as const

/** The times a new open house starts with: the agent's last ones on this device, else 1:00–4:00 PM. */
export function defaultTimes(): { start: string; end: string } {
  try {
    const saved = JSON.parse(localStorage.getItem(LAST_TIMES_KEY) ?? 'null') as unknown
    const start = TimeSlot.safeParse((saved as { start?: unknown })?.start)
    const end = TimeSlot.safeParse((saved as { end?: unknown })?.end)
    if (start.success && end.success) return { start: start.data, end: end.data }
  } catch {
    // Storage unavailable or spoiled: the usual afternoon.
  }
  return { ...DEFAULT_TIMES }
}

/** Keeps fixed times (not the flexible option) for the agent's next open house. */
export function rememberTimes(start: string, end: string) {
  if (!TimeSlot.safeParse(start).success || !TimeSlot.safeParse(end).success) return
  try {
    localStorage.setItem(LAST_TIMES_KEY, JSON.stringify({ start, end }))
  } catch {
    // Not kept: the next form starts from 1:00–4:00 PM.
  }
}

export function emptyScheduleValues(): ScheduleFormValues {
  const times = defaultTimes()
  return {
    listingREAgentId: '',
    openHouseFor: '',
    flexiDate: false,
    scheduledDate: null,
    scheduledStartTime: times.start,
    scheduledEndTime: times.end,
    openHousePreparationDate: null,
    balloonsPutOutFlag: false,
    snackServedFlag: false,
    mealServedFlag: false,
    drinkServedFlag: false,
    openHouseInstructions: '',
    publishLevel: '',
    autoCloneOpenHouseFlag: false,
    followUpMailFlag: true,
    emailIdForSharingOHFeedback: '',
    mlsId: '',
    listingURL: '',
    customQuestions: [],
  }
}

export function scheduleValues(oh: OpenHouseDetails): ScheduleFormValues {
  return {
    listingREAgentId: String(oh.listingREAgentId),
    openHouseFor: oh.openHouseFor,
    flexiDate: oh.scheduledDate === null,
    scheduledDate: oh.scheduledDate ? parseDate(oh.scheduledDate.slice(0, 10)) : null,
    scheduledStartTime: oh.scheduledStartTime,
    scheduledEndTime: oh.scheduledEndTime,
    openHousePreparationDate: oh.openHousePreparationDate
      ? parseDate(oh.openHousePreparationDate.slice(0, 10))
      : null,
    balloonsPutOutFlag: oh.balloonsPutOutFlag,
    snackServedFlag: oh.snackServedFlag,
    mealServedFlag: oh.mealServedFlag,
    drinkServedFlag: oh.drinkServedFlag,
    openHouseInstructions: oh.openHouseInstructions ?? '',
    publishLevel: oh.publishLevel,
    autoCloneOpenHouseFlag: oh.autoCloneOpenHouseFlag,
    followUpMailFlag: oh.followUpMailFlag,
    emailIdForSharingOHFeedback: oh.emailIdForSharingOHFeedback ?? '',
    mlsId: oh.mlsId ?? '',
    listingURL: oh.listingURL ?? '',
    customQuestions: questionDrafts(oh.customQuestions),
  }
}

const flag = (value: boolean) => (value ? 'true' : 'false')

/**
 * The body SaveOpenHouseBody parses (SPEC §7): dates as ISO calendar dates or the flexi label,
 * flags as 'true'/'false', the browser's time zone, the canceled flag false, unpicked selects missing.
 */
export function scheduleInput(
  values: ScheduleFormValues,
  context: { rePropertyId: number; reInventoryId?: number | null; timeZone: string },
): Record<keyof SaveOpenHouseBody, unknown> {
  return {
    rePropertyId: context.rePropertyId,
    reInventoryId: context.reInventoryId ?? null,
    listingREAgentId: values.listingREAgentId ? Number(values.listingREAgentId) : undefined,
    openHouseFor: values.openHouseFor || undefined,
    scheduledDate: values.flexiDate ? FLEXI_DATE : (values.scheduledDate?.toString() ?? undefined),
    scheduledStartTime: values.scheduledStartTime || undefined,
    scheduledEndTime: values.scheduledEndTime || undefined,
    openHouseTimezone: context.timeZone,
    openHousePreparationDate: values.openHousePreparationDate?.toString() ?? null,
    balloonsPutOutFlag: flag(values.balloonsPutOutFlag),
    snackServedFlag: flag(values.snackServedFlag),
    mealServedFlag: flag(values.mealServedFlag),
    drinkServedFlag: flag(values.drinkServedFlag),
    openHouseInstructions: values.openHouseInstructions,
    publishLevel: values.publishLevel || undefined,
    autoCloneOpenHouseFlag: flag(values.autoCloneOpenHouseFlag),
    followUpMailFlag: flag(values.followUpMailFlag),
    emailIdForSharingOHFeedback: values.emailIdForSharingOHFeedback,
    mlsId: values.mlsId,
    listingURL: values.listingURL,
    openHouseCanceledFlag: 'false',
    customQuestions: questionsInput(values.customQuestions),
  }
}

/**
 * Rules the shared schema cannot see: a date is needed unless the flexible date is chosen, and Team
 * Lead / Admin Team Member pick the listing agent (SPEC §5).
 */
export function scheduleCrossErrors(
  values: ScheduleFormValues,
  options: { choosesListingAgent: boolean; datesLocked: boolean },
): FieldErrors<ScheduleFormValues> {
  const errors: FieldErrors<ScheduleFormValues> = {}
  if (!options.datesLocked && !values.flexiDate && !values.scheduledDate) {
    errors.scheduledDate = `Pick a date, or choose '${FLEXI_DATE}'`
  }
  if (options.choosesListingAgent && !values.listingREAgentId) {
    errors.listingREAgentId = SCHEDULE_REQUIRED_MESSAGES.listingREAgentId
  }
  return errors
}
