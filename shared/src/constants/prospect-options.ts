// SPEC §3's choices on the prospect form, which the guest sign-in page shows too: plain `as const`
// lists as in options.ts (enums.ts builds their zod enums).

/** 'Afteroon' is spelt so in the SPEC. */
export const BEST_TIMES_TO_CONTACT = ['Morning', 'Afteroon', 'Evening', 'Weekends', 'No Preference'] as const
export type BestTimeToContact = (typeof BEST_TIMES_TO_CONTACT)[number]

export const PROSPECT_NOTIFICATIONS = ['Email', 'SMS', 'Both'] as const
export type ProspectNotification = (typeof PROSPECT_NOTIFICATIONS)[number]

export const CURRENT_HOUSE_STATUSES = ['Rent', 'Own', 'Other'] as const
export type CurrentHouseStatus = (typeof CURRENT_HOUSE_STATUSES)[number]

export const HOME_BUYING_TIMELINES = [
  'Now',
  '1-3 Months',
  '3-6 Months',
  '6-9 Months',
  'Just Exploring',
  'Other',
] as const
export type HomeBuyingTimeline = (typeof HOME_BUYING_TIMELINES)[number]

export const HEARD_ABOUT_THIS_OPEN_HOUSE = [
  'Friend',
  'Driving By',
  'Signs',
  'Online Website',
  'Realtor Communication',
  'Other',
] as const
export type HeardAboutThisOpenHouse = (typeof HEARD_ABOUT_THIS_OPEN_HOUSE)[number]

/** Where the agent stands with a lead (issue 13's small CRM); a new lead starts at 'New'. */
export const PROSPECT_STAGES = ['New', 'Contacted', 'Nurturing', 'Client', 'Closed'] as const
export type ProspectStage = (typeof PROSPECT_STAGES)[number]
