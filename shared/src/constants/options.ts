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

/** The 24 hourly slots, '12:00 AM' … '11:00 PM' (SPEC §5). */
export const TIME_SLOTS = [
  '12:00 AM',
  '1:00 AM',
  '2:00 AM',
  '3:00 AM',
  '4:00 AM',
  '5:00 AM',
  '6:00 AM',
  '7:00 AM',
  '8:00 AM',
  '9:00 AM',
  '10:00 AM',
  '11:00 AM',
  '12:00 PM',
  '1:00 PM',
  '2:00 PM',
  '3:00 PM',
  '4:00 PM',
  '5:00 PM',
  '6:00 PM',
  '7:00 PM',
  '8:00 PM',
  '9:00 PM',
  '10:00 PM',
  '11:00 PM',
] as const
export type TimeSlot = (typeof TIME_SLOTS)[number]

/** The flexible start/end time: the claiming agent picks the time. */
export const FLEXI_TIME = 'Choose Your Own (Flexi Time)'
/** The flexible date: the claiming agent picks the date (stored as a null scheduled date). */
export const FLEXI_DATE = 'Pick Your Own (Flexi Date)'

/** What the schedule form offers for start and end time; the update-schedule form offers TIME_SLOTS only. */
export const SCHEDULE_TIMES = [...TIME_SLOTS, FLEXI_TIME] as const
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
