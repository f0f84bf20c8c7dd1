import { z } from 'zod'

// Every fixed list of SPEC §3/§4/§9, as the labels that travel in the API and sit in the database
// (the migrations' CHECK constraints hold the same labels). Spelling is the SPEC's, mistakes included.
// Each list is an `as const` array, a zod enum of the same name in PascalCase, and its type.

export const AGENT_ROLES = ['Real Estate Agent', 'Team Lead', 'Admin Team Member'] as const
export const AgentRole = z.enum(AGENT_ROLES)
export type AgentRole = z.infer<typeof AgentRole>

export const PUBLISH_LEVELS = [
  'Hosting Myself',
  'Market Center',
  'Open To All',
  'Real Estate Team',
  'Real Estate Group',
  'Partnered Team',
] as const
export const PublishLevel = z.enum(PUBLISH_LEVELS)
export type PublishLevel = z.infer<typeof PublishLevel>

export const OPEN_HOUSE_FOR = ['Sale', 'Rent'] as const
export const OpenHouseFor = z.enum(OPEN_HOUSE_FOR)
export type OpenHouseFor = z.infer<typeof OpenHouseFor>

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
export const TimeSlot = z.enum(TIME_SLOTS)
export type TimeSlot = z.infer<typeof TimeSlot>

/** The flexible start/end time: the claiming agent picks the time. */
export const FLEXI_TIME = 'Choose Your Own (Flexi Time)'
/** The flexible date: the claiming agent picks the date (stored as a null scheduled date). */
export const FLEXI_DATE = 'Pick Your Own (Flexi Date)'

/** What the schedule form offers for start and end time; the update-schedule form offers TIME_SLOTS only. */
export const SCHEDULE_TIMES = [...TIME_SLOTS, FLEXI_TIME] as const
export const ScheduleTime = z.enum(SCHEDULE_TIMES)
export type ScheduleTime = z.infer<typeof ScheduleTime>

export const CANCEL_REASONS = [
  'Seller Not Available',
  'Property Under Contract',
  'Agent Unavailability',
  'Not Right Day/Time',
  'Other',
] as const
export const CancelReason = z.enum(CANCEL_REASONS)
export type CancelReason = z.infer<typeof CancelReason>

export const PROPERTY_TYPES = [
  'Apartment',
  'Condo',
  'Duplex',
  'Other',
  'Single Family Home',
  'Townhouse',
] as const
export const PropertyType = z.enum(PROPERTY_TYPES)
export type PropertyType = z.infer<typeof PropertyType>

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
export const ListingStatus = z.enum(LISTING_STATUSES)
export type ListingStatus = z.infer<typeof ListingStatus>

/** The inventory status that still permits Delete and Schedule Open House (SPEC §4). */
export const PROPERTY_CREATED = 'Property Created'

/** Every status an inventory item may have: 'Property Created' then the listing statuses. */
export const INVENTORY_PROPERTY_STATUSES = [PROPERTY_CREATED, ...LISTING_STATUSES] as const
export const InventoryPropertyStatus = z.enum(INVENTORY_PROPERTY_STATUSES)
export type InventoryPropertyStatus = z.infer<typeof InventoryPropertyStatus>

export const TEAM_TYPES = [
  'Real Estate Team',
  'Partnered Team',
  'Real Estate Group',
  'Market Center',
] as const
export const TeamType = z.enum(TEAM_TYPES)
export type TeamType = z.infer<typeof TeamType>

/** The fixed placeholder every team carries as its code (SPEC §3). */
export const TEAM_CODE_PLACEHOLDER = 'PORCHLIGHT-TEAM'

/** 'Afteroon' is spelt so in the SPEC. */
export const BEST_TIMES_TO_CONTACT = ['Morning', 'Afteroon', 'Evening', 'Weekends', 'No Preference'] as const
export const BestTimeToContact = z.enum(BEST_TIMES_TO_CONTACT)
export type BestTimeToContact = z.infer<typeof BestTimeToContact>

export const PROSPECT_NOTIFICATIONS = ['Email', 'SMS', 'Both'] as const
export const ProspectNotification = z.enum(PROSPECT_NOTIFICATIONS)
export type ProspectNotification = z.infer<typeof ProspectNotification>

export const CURRENT_HOUSE_STATUSES = ['Rent', 'Own', 'Other'] as const
export const CurrentHouseStatus = z.enum(CURRENT_HOUSE_STATUSES)
export type CurrentHouseStatus = z.infer<typeof CurrentHouseStatus>

export const HOME_BUYING_TIMELINES = [
  'Now',
  '1-3 Months',
  '3-6 Months',
  '6-9 Months',
  'Just Exploring',
  'Other',
] as const
export const HomeBuyingTimeline = z.enum(HOME_BUYING_TIMELINES)
export type HomeBuyingTimeline = z.infer<typeof HomeBuyingTimeline>

export const HEARD_ABOUT_THIS_OPEN_HOUSE = [
  'Friend',
  'Driving By',
  'Signs',
  'Online Website',
  'Realtor Communication',
  'Other',
] as const
export const HeardAboutThisOpenHouse = z.enum(HEARD_ABOUT_THIS_OPEN_HOUSE)
export type HeardAboutThisOpenHouse = z.infer<typeof HeardAboutThisOpenHouse>

export const PHONE_COUNTRIES = ['United States', 'Canada'] as const
export const PhoneCountry = z.enum(PHONE_COUNTRIES)
export type PhoneCountry = z.infer<typeof PhoneCountry>

export const PLAN_FREQUENCIES = ['Monthly', 'Yearly'] as const
export const PlanFrequency = z.enum(PLAN_FREQUENCIES)
export type PlanFrequency = z.infer<typeof PlanFrequency>

/** Feedback rating fields by form section (SPEC §3 "Feedback"); each is 1–5 or empty for N/A. */
export const FEEDBACK_RATING_GROUPS = {
  exterior: ['homeLot', 'curbAppeal', 'frontYard', 'backYard'],
  interior: [
    'kitchen',
    'familyRoom',
    'livingRoom',
    'diningRoom',
    'masterBedroom',
    'masterBathroom',
    'otherBedrooms',
    'otherBathrooms',
    'laundryRoom',
    'closetsStorage',
    'hallways',
    'garage',
    'basement',
    'homeLayout',
    'homeFeatures',
  ],
  other: [
    'homeLocation',
    'homeCondition',
    'homePrice',
    'homeNeighborhood',
    'overallExperience',
    'meetsMyCriteria',
  ],
  hostingAgent: [
    'agentKnowledge',
    'agentProfessionalism',
    'agentCommunication',
    'agentResponsiveness',
    'agentOverallExperience',
    'agentRecommendation',
  ],
} as const
export type FeedbackRatingGroup = keyof typeof FEEDBACK_RATING_GROUPS

/** All 31 rating fields, in form order. */
export const FEEDBACK_RATING_FIELDS = [
  ...FEEDBACK_RATING_GROUPS.exterior,
  ...FEEDBACK_RATING_GROUPS.interior,
  ...FEEDBACK_RATING_GROUPS.other,
  ...FEEDBACK_RATING_GROUPS.hostingAgent,
] as const
export const FeedbackRatingField = z.enum(FEEDBACK_RATING_FIELDS)
export type FeedbackRatingField = z.infer<typeof FeedbackRatingField>

export const RATING_MIN = 1
export const RATING_MAX = 5

export const US_STATES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'District of Columbia',
  'Florida',
  'Georgia',
  'Hawaii',
  'Idaho',
  'Illinois',
  'Indiana',
  'Iowa',
  'Kansas',
  'Kentucky',
  'Louisiana',
  'Maine',
  'Maryland',
  'Massachusetts',
  'Michigan',
  'Minnesota',
  'Mississippi',
  'Missouri',
  'Montana',
  'Nebraska',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'North Dakota',
  'Ohio',
  'Oklahoma',
  'Oregon',
  'Pennsylvania',
  'Rhode Island',
  'South Carolina',
  'South Dakota',
  'Tennessee',
  'Texas',
  'Utah',
  'Vermont',
  'Virginia',
  'Washington',
  'West Virginia',
  'Wisconsin',
  'Wyoming',
] as const

/** 10 provinces, then 3 territories. */
export const CANADIAN_PROVINCES = [
  'Alberta',
  'British Columbia',
  'Manitoba',
  'New Brunswick',
  'Newfoundland and Labrador',
  'Nova Scotia',
  'Ontario',
  'Prince Edward Island',
  'Quebec',
  'Saskatchewan',
  'Northwest Territories',
  'Nunavut',
  'Yukon',
] as const

/** 28 states, then 8 union territories. */
export const INDIAN_STATES = [
  'Andhra Pradesh',
  'Arunachal Pradesh',
  'Assam',
  'Bihar',
  'Chhattisgarh',
  'Goa',
  'Gujarat',
  'Haryana',
  'Himachal Pradesh',
  'Jharkhand',
  'Karnataka',
  'Kerala',
  'Madhya Pradesh',
  'Maharashtra',
  'Manipur',
  'Meghalaya',
  'Mizoram',
  'Nagaland',
  'Odisha',
  'Punjab',
  'Rajasthan',
  'Sikkim',
  'Tamil Nadu',
  'Telangana',
  'Tripura',
  'Uttar Pradesh',
  'Uttarakhand',
  'West Bengal',
  'Andaman and Nicobar Islands',
  'Chandigarh',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Delhi',
  'Jammu and Kashmir',
  'Ladakh',
  'Lakshadweep',
  'Puducherry',
] as const

export const STATE_COUNTRIES = ['United States', 'Canada', 'India'] as const
export const StateCountry = z.enum(STATE_COUNTRIES)
export type StateCountry = z.infer<typeof StateCountry>

export interface StateList {
  country: StateCountry
  states: readonly string[]
}

/** The licensed-state dropdown's groups (SPEC §5): United States, Canada and India. */
export const STATE_LISTS: readonly StateList[] = [
  { country: 'United States', states: US_STATES },
  { country: 'Canada', states: CANADIAN_PROVINCES },
  { country: 'India', states: INDIAN_STATES },
]

/** Any state, province or territory of the three lists (no name appears in two of them). */
export const LICENSED_STATES = [...US_STATES, ...CANADIAN_PROVINCES, ...INDIAN_STATES] as const
export const LicensedState = z.enum(LICENSED_STATES)
export type LicensedState = z.infer<typeof LicensedState>
