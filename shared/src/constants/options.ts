// The agent app's fixed lists of SPEC §3/§4/§9, as the labels that travel in the API and sit in the
// database (the migrations' CHECK constraints hold the same labels). Spelling is the SPEC's, mistakes
// included. Each list is a plain `as const` array and its type, without zod: enums.ts builds the zod
// enum of the same name from it. The lists the guest pages show are in modules of their own
// (prospect-options.ts, feedback-ratings.ts): a module the guest app imports is downloaded whole.

export const AGENT_ROLES = ['Real Estate Agent', 'Team Lead', 'Admin Team Member'] as const
export type AgentRole = (typeof AGENT_ROLES)[number]

export const PUBLISH_LEVELS = [
  'Hosting Myself',
  'Market Center',
  'Open To All',
  'Real Estate Team',
  'Real Estate Group',
  'Partnered Team',
] as const
export type PublishLevel = (typeof PUBLISH_LEVELS)[number]

export const OPEN_HOUSE_FOR = ['Sale', 'Rent'] as const
export type OpenHouseFor = (typeof OPEN_HOUSE_FOR)[number]

/** The hours of a day as its slot labels name them: 12 AM, 1 AM … 11 PM. */
const HOURS = [12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const
const QUARTERS = ['00', '15', '30', '45'] as const
type SlotLabel = `${(typeof HOURS)[number]}:${(typeof QUARTERS)[number]} ${'AM' | 'PM'}`

/**
 * The start and end times, '12:00 AM', '12:15 AM' … '11:45 PM', in 15-minute steps (issue 32: open
 * houses start at :30 too). SPEC §5's 24 hourly slots are among them, spelled as before, so stored
 * open houses and API clients that send hourly labels stay valid. A slot's index × 15 is its minute
 * of the day.
 */
export const TIME_SLOTS = (['AM', 'PM'] as const).flatMap((half) =>
  HOURS.flatMap((hour) => QUARTERS.map((minute) => `${hour}:${minute} ${half}` as SlotLabel)),
) as unknown as readonly [SlotLabel, ...SlotLabel[]]
export type TimeSlot = (typeof TIME_SLOTS)[number]

/** The flexible start/end time: the claiming agent picks the time. */
export const FLEXI_TIME = 'Choose Your Own (Flexi Time)' as const
/** The flexible date: the claiming agent picks the date (stored as a null scheduled date). */
export const FLEXI_DATE = 'Pick Your Own (Flexi Date)'

/** What the schedule form offers for start and end time; the update-schedule form offers TIME_SLOTS only. */
export const SCHEDULE_TIMES = [...TIME_SLOTS, FLEXI_TIME] as const as readonly [
  SlotLabel | typeof FLEXI_TIME,
  ...(SlotLabel | typeof FLEXI_TIME)[],
]
export type ScheduleTime = (typeof SCHEDULE_TIMES)[number]

export const CANCEL_REASONS = [
  'Seller Not Available',
  'Property Under Contract',
  'Agent Unavailability',
  'Not Right Day/Time',
  'Other',
] as const
export type CancelReason = (typeof CANCEL_REASONS)[number]

export const PROPERTY_TYPES = [
  'Apartment',
  'Condo',
  'Duplex',
  'Other',
  'Single Family Home',
  'Townhouse',
] as const
export type PropertyType = (typeof PROPERTY_TYPES)[number]

/** SPEC §9 listing statuses. */
export const LISTING_STATUSES = [
  'Active',
  'Active Under Contract',
  'Pending',
  'Sold/Closed',
  'Off Market',
  'Coming Soon',
  'Contingent',
  'Hold',
  'Withdraw',
] as const
export type ListingStatus = (typeof LISTING_STATUSES)[number]

/** The inventory status that still permits Delete and Schedule Open House (SPEC §4). */
export const PROPERTY_CREATED = 'Property Created'

/** Every status an inventory item may have: 'Property Created' then the listing statuses. */
export const INVENTORY_PROPERTY_STATUSES = [PROPERTY_CREATED, ...LISTING_STATUSES] as const
export type InventoryPropertyStatus = (typeof INVENTORY_PROPERTY_STATUSES)[number]

export const TEAM_TYPES = [
  'Real Estate Team',
  'Partnered Team',
  'Real Estate Group',
  'Market Center',
] as const
export type TeamType = (typeof TEAM_TYPES)[number]

/** The fixed placeholder every team carries as its code (SPEC §3). */
export const TEAM_CODE_PLACEHOLDER = 'PORCHLIGHT-TEAM'

export const PHONE_COUNTRIES = ['United States', 'Canada'] as const
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number]

export const PLAN_FREQUENCIES = ['Monthly', 'Yearly'] as const
export type PlanFrequency = (typeof PLAN_FREQUENCIES)[number]
