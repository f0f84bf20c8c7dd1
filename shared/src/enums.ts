import { z } from 'zod'
import { FEEDBACK_RATING_FIELDS } from './constants/feedback-ratings.ts'
import {
  AGENT_ROLES,
  CANCEL_REASONS,
  INVENTORY_PROPERTY_STATUSES,
  LISTING_STATUSES,
  OPEN_HOUSE_FOR,
  PHONE_COUNTRIES,
  PLAN_FREQUENCIES,
  PROPERTY_TYPES,
  PUBLISH_LEVELS,
  SCHEDULE_TIMES,
  TEAM_TYPES,
  TIME_SLOTS,
} from './constants/options.ts'
import {
  BEST_TIMES_TO_CONTACT,
  CURRENT_HOUSE_STATUSES,
  HEARD_ABOUT_THIS_OPEN_HOUSE,
  HOME_BUYING_TIMELINES,
  PROSPECT_NOTIFICATIONS,
  PROSPECT_STAGES,
} from './constants/prospect-options.ts'
import { LICENSED_STATES, STATE_COUNTRIES } from './constants/states.ts'

// The zod enum of every SPEC list in constants/, where the labels are written once, for the server's
// validation and the agent app's forms. The lists are re-exported, so this module (and the package's
// index) offers both; the type beside each enum is the same as the plain one it shadows.

export * from './constants/feedback-ratings.ts'
export * from './constants/options.ts'
export * from './constants/prospect-options.ts'
export * from './constants/states.ts'

export const AgentRole = z.enum(AGENT_ROLES)
export type AgentRole = z.infer<typeof AgentRole>

export const PublishLevel = z.enum(PUBLISH_LEVELS)
export type PublishLevel = z.infer<typeof PublishLevel>

export const OpenHouseFor = z.enum(OPEN_HOUSE_FOR)
export type OpenHouseFor = z.infer<typeof OpenHouseFor>

export const TimeSlot = z.enum(TIME_SLOTS)
export type TimeSlot = z.infer<typeof TimeSlot>

export const ScheduleTime = z.enum(SCHEDULE_TIMES)
export type ScheduleTime = z.infer<typeof ScheduleTime>

export const CancelReason = z.enum(CANCEL_REASONS)
export type CancelReason = z.infer<typeof CancelReason>

export const PropertyType = z.enum(PROPERTY_TYPES)
export type PropertyType = z.infer<typeof PropertyType>

export const ListingStatus = z.enum(LISTING_STATUSES)
export type ListingStatus = z.infer<typeof ListingStatus>

export const InventoryPropertyStatus = z.enum(INVENTORY_PROPERTY_STATUSES)
export type InventoryPropertyStatus = z.infer<typeof InventoryPropertyStatus>

export const TeamType = z.enum(TEAM_TYPES)
export type TeamType = z.infer<typeof TeamType>

export const BestTimeToContact = z.enum(BEST_TIMES_TO_CONTACT)
export type BestTimeToContact = z.infer<typeof BestTimeToContact>

export const ProspectNotification = z.enum(PROSPECT_NOTIFICATIONS)
export type ProspectNotification = z.infer<typeof ProspectNotification>

export const CurrentHouseStatus = z.enum(CURRENT_HOUSE_STATUSES)
export type CurrentHouseStatus = z.infer<typeof CurrentHouseStatus>

export const HomeBuyingTimeline = z.enum(HOME_BUYING_TIMELINES)
export type HomeBuyingTimeline = z.infer<typeof HomeBuyingTimeline>

export const HeardAboutThisOpenHouse = z.enum(HEARD_ABOUT_THIS_OPEN_HOUSE)
export type HeardAboutThisOpenHouse = z.infer<typeof HeardAboutThisOpenHouse>

export const ProspectStage = z.enum(PROSPECT_STAGES)
export type ProspectStage = z.infer<typeof ProspectStage>

export const PhoneCountry = z.enum(PHONE_COUNTRIES)
export type PhoneCountry = z.infer<typeof PhoneCountry>

export const PlanFrequency = z.enum(PLAN_FREQUENCIES)
export type PlanFrequency = z.infer<typeof PlanFrequency>

export const FeedbackRatingField = z.enum(FEEDBACK_RATING_FIELDS)
export type FeedbackRatingField = z.infer<typeof FeedbackRatingField>

export const StateCountry = z.enum(STATE_COUNTRIES)
export type StateCountry = z.infer<typeof StateCountry>

export const LicensedState = z.enum(LICENSED_STATES)
export type LicensedState = z.infer<typeof LicensedState>
