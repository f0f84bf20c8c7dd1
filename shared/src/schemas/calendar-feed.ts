import { z } from 'zod'

/** GET getCalendarFeedUrl: the agent's secret iCalendar address (webcal clients subscribe to it). */
export const CalendarFeedUrl = z.object({ url: z.string() })
export type CalendarFeedUrl = z.infer<typeof CalendarFeedUrl>
