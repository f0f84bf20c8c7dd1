import type {
  AgentRole,
  BestTimeToContact,
  CancelReason,
  CurrentHouseStatus,
  FirmMembershipStatus,
  HeardAboutThisOpenHouse,
  HomeBuyingTimeline,
  InventoryPropertyStatus,
  InvitationStatus,
  OpenHouseFor,
  PhoneCountry,
  PlanFrequency,
  PropertyType,
  ProspectNotification,
  ProspectStage,
  PublishLevel,
  ScheduleTime,
  TeamType,
} from '@porchlight/shared'
import type { ColumnType, Generated } from 'kysely'

// Table types for Kysely with CamelCasePlugin: each name is the camelCase of the snake_case column
// in migrations/ (so `hosting_re_agent_id` is `hostingReAgentId`, not the SPEC's `hostingREAgentId`).
// The pg driver and PGlite are set up (db/database.ts) to return int8 and numeric as numbers and
// date columns as 'YYYY-MM-DD' strings.

/** A bigint identity primary key. */
type Id = Generated<number>

/** timestamptz with a database default (now()). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** timestamptz without a default, required on insert. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>
/** timestamptz that may be null. */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>

/** A column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>
/** A nullable column: optional on insert (stored as null). */
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }
/**
 * jsonb: written as a JSON string (JSON.stringify), because pg would turn a JS array into a
 * Postgres array literal; read back parsed.
 */
type Json = ColumnType<JsonValue, string, string>
type NullableJson = ColumnType<JsonValue | null, string | null | undefined, string | null>

// Fixed-list columns use the label types of @porchlight/shared enums.ts; the migrations hold the same
// labels as CHECK constraints. The two lists below exist only in the database.

export type EmailCodePurpose = 'verify_email' | 'temp_password' | 'change_email'
/** 'waiting': the SMTP server could not take it yet, tried again at nextAttemptAt; 'failed' is final. */
export type MailStatus = 'queued' | 'sending' | 'sent' | 'stored' | 'waiting' | 'failed' | 'suppressed'

export interface PorchlightUserTable {
  id: Id
  porchlightUserEmailId: string
  /** argon2id hash */
  porchlightUserPass: string
  userEnabled: Defaulted<boolean>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface SessionTable {
  /** hex SHA-256 of the session token */
  id: string
  userId: number
  expiresAt: RequiredTimestamp
  createdAt: Timestamp
  /** Opened with a temporary password: may set a new password without the current one, once. */
  recovery: Defaulted<boolean>
}

export interface EmailCodeTable {
  id: Id
  userId: number
  purpose: EmailCodePurpose
  codeHash: string
  expiresAt: RequiredTimestamp
  attempts: Defaulted<number>
  usedAt: NullableTimestamp
  createdAt: Timestamp
  /** the sign-in email a 'change_email' code confirms */
  newEmail: Nullable<string>
}

export interface ReAgentTable {
  id: Id
  porchlightUserId: number
  reAgentFirmName: Nullable<string>
  reAgentFirstName: string
  reAgentMiddleName: Nullable<string>
  reAgentLastName: string
  reAgentEmailId: string
  reAgentPhoneCountryCode: PhoneCountry
  reAgentPhoneNumber: string
  reAgentLicensedState: Nullable<string>
  reAgentLicenseNumber: Nullable<string>
  reAgentLicenseValidityFlag: Defaulted<boolean>
  reAgentBrokerFirmName: string
  reAgentBrokerFirmLicense: string
  /** 'YYYY-MM-DD' */
  reAgentDateOfBirth: Nullable<string>
  /** five digits, 10000–99999 */
  reAgentResidenceZipCode: Nullable<string>
  /** the role held: granted by a verified Team Lead of the firm or the operator (re_agent_role_grant) */
  reAgentRole: Defaulted<AgentRole>
  /** the role it asked for at sign-up; holds nothing */
  requestedRole: Nullable<AgentRole>
  reAgentTeamId: Nullable<number>
  reAgentPartneredTeamId: Nullable<number>
  /** pending until a verified Team Lead or Admin Team Member of the firm (or an operator) verifies it */
  firmMembershipStatus: Defaulted<FirmMembershipStatus>
  /** when the agent last asked the operator to verify its firm membership (once a day at most) */
  firmVerificationRequestedAt: NullableTimestamp
  firmMembershipDecidedByReAgentId: Nullable<number>
  firmMembershipDecidedAt: NullableTimestamp
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface RePropertyTable {
  id: Id
  propertyAddress1: string
  propertyAddress2: Nullable<string>
  propertyCity: string
  propertyState: string
  propertyZipCode: string
  propertyZipPlus4: Nullable<string>
  propertyCounty: Nullable<string>
  propertyCountry: string
  propertyLatitude: Nullable<number>
  propertyLongitude: Nullable<number>
  propertyType: PropertyType
  /** who typed the address in; null for properties made before it was recorded */
  createdByReAgentId: Nullable<number>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface ReInventoryTable {
  id: Id
  owningReAgentId: number
  rePropertyId: number
  /** defaults to 'Property Created' */
  reInventoryPropertyStatus: Defaulted<InventoryPropertyStatus>
  reInventoryOpenHouseStatus: Nullable<string>
  reInventoryPropertyDeleteFlag: Defaulted<boolean>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface OpenHouseTable {
  id: Id
  /** when the host was sent the capture receipt, once the open house ended */
  captureReceiptSentAt: NullableTimestamp
  rePropertyId: number
  listingReAgentId: number
  hostingReAgentId: Nullable<number>
  openHouseFor: OpenHouseFor
  mlsId: Nullable<string>
  listingUrl: Nullable<string>
  /** 'YYYY-MM-DD'; null = 'Pick Your Own (Flexi Date)' */
  scheduledDate: Nullable<string>
  /** an hourly slot label or 'Choose Your Own (Flexi Time)' */
  scheduledStartTime: ScheduleTime
  scheduledEndTime: ScheduleTime
  /** IANA zone, default 'UTC' */
  openHouseTimezone: Defaulted<string>
  openHousePreparationDate: Nullable<string>
  balloonsPutOutFlag: Defaulted<boolean>
  snackServedFlag: Defaulted<boolean>
  mealServedFlag: Defaulted<boolean>
  drinkServedFlag: Defaulted<boolean>
  /** at most 200 characters */
  openHouseInstructions: Nullable<string>
  publishLevel: PublishLevel
  /** '0' Hosting Myself, '-1' Open To All, broker firm license for Market Center, else a team id */
  publishLevelId: string
  /** when the opportunity was offered; null = not (yet) on offer */
  publishedAt: NullableTimestamp
  autoCloneOpenHouseFlag: Defaulted<boolean>
  /** a guest who consented gets the agent's follow-up mail two days after the visit */
  followUpMailFlag: Defaulted<boolean>
  emailIdForSharingOhFeedback: Nullable<string>
  openHouseCanceledFlag: Defaulted<boolean>
  /** required when canceled */
  openHouseCancelReason: Nullable<CancelReason>
  reInventoryId: Nullable<number>
  startsAt: NullableTimestamp
  endsAt: NullableTimestamp
  clonedFromOpenHouseId: Nullable<number>
  /** set on the copy auto-clone made; unique, so an open house is auto-cloned once */
  autoCloneOfOpenHouseId: Nullable<number>
  /** the agent who scheduled it: the listing agent, or a Team Lead / Admin Team Member acting for it */
  scheduledByReAgentId: number
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface ProspectTable {
  id: Id
  prospectFirstName: string
  prospectMiddleName: Nullable<string>
  prospectLastName: string
  prospectEmailId: string
  prospectPhoneNumber: string
  prospectAddress1: Nullable<string>
  prospectAddress2: Nullable<string>
  prospectCity: Nullable<string>
  prospectState: Nullable<string>
  prospectZipCode: Nullable<string>
  prospectZipPlus4: Nullable<string>
  prospectCounty: Nullable<string>
  prospectCountry: Nullable<string>
  currentHouseStatus: Nullable<CurrentHouseStatus>
  homeBuyingTimelines: Nullable<HomeBuyingTimeline>
  /** yes, no or null (not said); only false counts among "Leads Without Realtor" (decision 038) */
  workingWithReAgentFlag: Nullable<boolean>
  /** 'Afteroon' spelt so */
  bestTimeToContact: Nullable<BestTimeToContact>
  heardAboutThisOpenHouse: Nullable<HeardAboutThisOpenHouse>
  prospectNotification: Nullable<ProspectNotification>
  createdByReAgentId: number
  /** guest sign-in idempotency key (uuid) */
  clientRequestId: Nullable<string>
  emailConsent: Defaulted<boolean>
  smsConsent: Defaulted<boolean>
  consentText: Nullable<string>
  consentAt: NullableTimestamp
  /** where the agent stands with the lead: New, Contacted, Nurturing, Client, Closed */
  prospectStage: Defaulted<ProspectStage>
  /** the agent's next follow-up, a calendar date 'YYYY-MM-DD' */
  nextFollowUpDate: Nullable<string>
  createdDate: Timestamp
  updatedDate: Timestamp
}

/** An agent's dated note on its own prospect. */
export interface ProspectNoteTable {
  id: Id
  prospectId: number
  reAgentId: number
  noteText: string
  createdDate: Timestamp
}

export interface OpenHouseAttendeeTable {
  id: Id
  openHouseId: number
  prospectId: number
  /** what the guest typed at this visit (the agent's prospect is never overwritten by it) */
  guestDetails: ColumnType<JsonValue | null, JsonValue | null | undefined, JsonValue | null>
  /** the guest agreed to share its contact details with the listing agent too */
  listingAgentConsent: Defaulted<boolean>
  /** the device the guest signed in on; null for an attendee an agent added */
  captureDevice: Nullable<CaptureDevice>
  /** the sign-in waited on the device, offline, and was sent later */
  capturedOffline: Defaulted<boolean>
  /** the guest's answers to the open house's custom questions, keyed by question id */
  customAnswers: NullableJson
  /** the guest sign-in's own id (a retry sends it again); null for an attendee an agent added */
  clientRequestId: Nullable<string>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export type CustomQuestionKind = 'text' | 'yesno' | 'choice'

/** One of an open house's custom questions; a removed one stays to name the answers given to it. */
export interface OpenHouseQuestionTable {
  id: Id
  openHouseId: number
  position: number
  questionText: string
  kind: CustomQuestionKind
  /** a choice question's options */
  choices: NullableJson
  removedAt: NullableTimestamp
  createdDate: Timestamp
}

export type CaptureDevice = 'phone' | 'tablet' | 'computer' | 'kiosk'

/** A rating 1–5; null is 'N/A'. */
type Rating = Nullable<number>

export interface OpenHouseFeedbackTable {
  id: Id
  openHouseId: number
  prospectId: number
  /** the visit it was given at (one each); null for feedback older than visits of their own */
  attendeeId: Nullable<number>
  hostingReAgentId: Nullable<number>
  feedbackText: Nullable<string>
  // exterior
  homeLot: Rating
  curbAppeal: Rating
  frontYard: Rating
  backYard: Rating
  // interior
  kitchen: Rating
  familyRoom: Rating
  livingRoom: Rating
  diningRoom: Rating
  masterBedroom: Rating
  masterBathroom: Rating
  otherBedrooms: Rating
  otherBathrooms: Rating
  laundryRoom: Rating
  closetsStorage: Rating
  hallways: Rating
  garage: Rating
  basement: Rating
  homeLayout: Rating
  homeFeatures: Rating
  // other
  homeLocation: Rating
  homeCondition: Rating
  homePrice: Rating
  homeNeighborhood: Rating
  overallExperience: Rating
  meetsMyCriteria: Rating
  // hosting agent
  agentKnowledge: Rating
  agentProfessionalism: Rating
  agentCommunication: Rating
  agentResponsiveness: Rating
  agentOverallExperience: Rating
  agentRecommendation: Rating
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface ReTeamTable {
  id: Id
  reTeamName: string
  /** always 'PORCHLIGHT-TEAM' */
  reTeamCode: Defaulted<string>
  teamType: TeamType
  reTeamLeadId: number
  reCoTeamLeadId: Nullable<number>
  createdByReAgentId: number
  reTeamActiveFlag: Defaulted<boolean>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface ReTeamMemberTable {
  id: Id
  reTeamId: number
  reAgentId: number
  reAgentCurrentFlag: Defaulted<boolean>
  addedByReAgentId: Nullable<number>
  invitationStatus: Defaulted<InvitationStatus>
  respondedAt: NullableTimestamp
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface PricingPlanTable {
  id: Id
  pricingPlanTitle: string
  /** ISO 4217 code, default 'USD' */
  pricingPlanCurrency: Defaulted<string>
  pricingPlanPriceMonthly: number
  pricingPlanPriceAnnualDiscPerc: Defaulted<number>
  /** per year; 999999 = Unlimited */
  numberOfOpenHousesCreate: number
  /** per year; 0 shows 'N/A' */
  numberOfOpenHousesPublish: number
  numberOfOpenHousesHost: number
  numberOfTeamsCreate: number
  numberOfTeamMembersPerTeam: number
  numberOfProspectsManage: number
  pricingPlanFeature1: Nullable<string>
  pricingPlanFeature2: Nullable<string>
  pricingPlanFeature3: Nullable<string>
  pricingPlanFeature4: Nullable<string>
  pricingPlanFeature5: Nullable<string>
  pricingPlanFeature6: Nullable<string>
  offered: Defaulted<boolean>
  sortOrder: Defaulted<number>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface PricingPlanPurchaseTable {
  id: Id
  pricingPlanId: number
  reAgentId: number
  pricingPlanFrequency: PlanFrequency
  pricingPlanStartDate: Timestamp
  pricingPlanEndDate: RequiredTimestamp
  totalReceivable: Defaulted<number>
  totalPaid: Defaulted<number>
  autoRenew: Defaulted<boolean>
  pricingPlanActiveFlag: Defaulted<boolean>
  createdDate: Timestamp
  updatedDate: Timestamp
}

export interface OutboxTable {
  id: Id
  /** random, with the id in the BullMQ job's name (null on rows written before keys were kept) */
  jobKey: ColumnType<string | null, undefined, never>
  queue: string
  jobName: string
  payload: Json
  createdAt: Timestamp
  /** the last time the relay handed it to BullMQ */
  relayedAt: NullableTimestamp
  /** a delayed job: it waits here, and is relayed once due */
  runAt: NullableTimestamp
  /** its job's effect happened (the worker marks it); until then the relay hands it over again */
  doneAt: NullableTimestamp
  /** BullMQ gave up after the last attempt */
  failedAt: NullableTimestamp
  failedReason: string | null
  /** set when the relay cannot deliver the row (unknown queue or job); it then waits for an operator */
  parkedAt: NullableTimestamp
  parkedReason: string | null
  /** the request that wrote it: { requestId, traceparent? } (decision 047); null outside a request */
  trace: ColumnType<{ requestId: string; traceparent?: string } | null, string | null | undefined, never>
}

export interface MailTable {
  id: Id
  toAddress: string
  subject: string
  textBody: string
  htmlBody: string
  attachments: NullableJson
  status: Defaulted<MailStatus>
  smtpMessageId: Nullable<string>
  /** The random part of its Message-ID, given when written (null: a mail written before it had one). */
  messageKey: ColumnType<string | null, string | null | undefined, string | null>
  sentAt: NullableTimestamp
  attempts: Defaulted<number>
  lastError: Nullable<string>
  createdAt: Timestamp
  /** While 'sending': the worker that claimed it owns it until then; after, another may take it over. */
  leaseUntil: NullableTimestamp
  /** A mail to a guest: the agent it is sent for (an opt-out from that agent suppresses it). */
  reAgentId: Nullable<number>
  fromName: Nullable<string>
  replyTo: Nullable<string>
  /** extra headers, e.g. List-Unsubscribe */
  headers: NullableJson
  /**
   * The mail's unsubscribe link, sealed (decision 033): its bodies and List-Unsubscribe header hold
   * `{{porchlight:unsubscribe}}` in its place until it goes out.
   */
  unsubscribeUrl: Nullable<string>
  /**
   * A link that opens something without a sign-in (the seller's live report), sealed: its bodies hold
   * `{{porchlight:link}}` in its place until it goes out.
   */
  privateLink: Nullable<string>
  /** While 'waiting': when it is tried again (sooner for 'server', once the server answers again). */
  nextAttemptAt: NullableTimestamp
  /**
   * While 'waiting': for the server to answer at all, or for the schedule after a temporary refusal.
   * While 'queued': 'job' for a mail an API process older than decision 053 wrote without a send job (a
   * sign-in's thank-you); the sweep gives it one once it has waited STRANDED_AFTER_MS (mail/retries.ts).
   */
  waitingFor: Nullable<'server' | 'schedule' | 'job'>
  /** The SMTP server's last refusal of it, as it answered (e.g. `550 5.1.1 No such user`). */
  smtpReply: Nullable<string>
  /**
   * the request a mail is for when written apart from it (by the worker's batch of welcomes, or without
   * a job by an older API process): { requestId, traceparent? } (decisions 047, 053); else null
   */
  trace: ColumnType<{ requestId: string; traceparent?: string } | null, string | null | undefined, never>
}

export type ConsentKind = 'email_opt_in' | 'email_opt_out'
export type ConsentSource = 'guest_sign_in' | 'one_click' | 'unsubscribe_page' | 'agent'

/** The consent ledger: every opt-in and opt-out of an address for an agent, never updated. */
export interface ConsentEventTable {
  id: Id
  reAgentId: number
  prospectId: Nullable<number>
  /** lower-cased */
  email: string
  kind: ConsentKind
  source: ConsentSource
  at: Timestamp
  detail: Nullable<string>
}

/** An unsubscribe link of a guest mail: the SHA-256 (hex) of its token, for an agent and an address. */
export interface UnsubscribeTokenTable {
  tokenHash: string
  reAgentId: number
  prospectId: Nullable<number>
  email: string
  createdAt: Timestamp
}

/** The follow-up of one visit, taken once. */
/**
 * A consenting guest's visit owed its welcome (the opt-in, the thank-you, the follow-up): written by the
 * sign-in statement, taken and deleted by the worker in batches (decision 053).
 */
export interface GuestWelcomeTable {
  attendeeId: number
  /** the sign-in request's trace: { requestId, traceparent? } (decision 047); null outside a request */
  trace: ColumnType<{ requestId: string; traceparent?: string } | null, string | null | undefined, never>
  /** times its welcome failed by itself (the visit's data), and it was set aside */
  attempts: Generated<number>
  /** when a set-aside welcome may be tried again: null now, 'infinity' left for an operator */
  retryAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** the last failure's message */
  lastError: ColumnType<string | null, string | null | undefined, string | null>
}

export interface GuestFollowUpTable {
  openHouseId: number
  prospectId: number
  mailId: Nullable<number>
  createdAt: Timestamp
}

/** A guest's capability to give feedback: the SHA-256 (hex) of the token it was given. */
export interface GuestTokenTable {
  tokenHash: string
  prospectId: number
  openHouseId: number
  /** the one visit the token opens (decision 029) */
  attendeeId: number
  createdDate: Timestamp
}

/** A seller's private report link of an open house: only the token's SHA-256 is kept. */
export interface SellerReportLinkTable {
  id: Id
  openHouseId: number
  tokenHash: string
  createdByReAgentId: number
  expiresAt: RequiredTimestamp
  revokedAt: NullableTimestamp
  createdDate: Timestamp
  /** Sealed (decision 051): kept so the seller's mail can carry the live link; null on older links. */
  token: ColumnType<string | null, string | null | undefined, string | null>
  /** The seller's address (decision 051): mailed once when the open house ends. */
  sellerEmail: ColumnType<string | null, string | null | undefined, string | null>
  sellerUnsubscribedAt: NullableTimestamp
}

/** The seller's one mail of a link and open house (decision 051): a second job finds it taken. */
export interface SellerReportMailTable {
  linkId: number
  openHouseId: number
  mailId: number | null
  /** SHA-256 of the mail's one-click unsubscribe token. */
  unsubscribeTokenHash: string
  createdAt: Timestamp
}

/** An agent's secret iCalendar feed; deleting the row revokes its address. */
export interface CalendarFeedTable {
  reAgentId: number
  /** Sealed (decision 033); a feed is found by `tokenHash`, the token's SHA-256 in hex. */
  token: string
  tokenHash: string
  createdDate: Timestamp
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed'

/** An agent's outgoing webhook endpoint; the secret signs its deliveries and is answered once. */
export interface WebhookEndpointTable {
  id: Id
  /** Who registered it; for a team endpoint, the lead or co-lead who did. */
  reAgentId: number
  /** Set for a team's endpoint: it hears the events of everyone in the team. */
  teamId: Nullable<number>
  url: string
  description: Nullable<string>
  events: ColumnType<string[], string[], string[]>
  secret: string
  /** The first failed attempt since the last success; three days of it disables the endpoint. */
  failingSince: NullableTimestamp
  disabledAt: NullableTimestamp
  createdDate: Timestamp
}

/** One event for one endpoint, with the outcome of its last attempt (the delivery log). */
export interface WebhookDeliveryTable {
  id: Id
  endpointId: number
  /** The `webhook-id` header: the same on every attempt and replay. */
  messageId: string
  eventType: string
  payload: Json
  status: Defaulted<WebhookDeliveryStatus>
  attempts: Defaulted<number>
  leaseUntil: NullableTimestamp
  nextAttemptAt: NullableTimestamp
  responseStatus: Nullable<number>
  latencyMs: Nullable<number>
  responseExcerpt: Nullable<string>
  lastError: Nullable<string>
  createdDate: Timestamp
  lastAttemptAt: NullableTimestamp
  /** The last replay asked for: replays within REPLAY_WINDOW_MS of it are the same replay. */
  replayedAt: NullableTimestamp
}

/** An agent's Follow Up Boss API key: used to post sign-ins, never answered. */
export interface FubConnectorTable {
  reAgentId: number
  apiKey: string
  createdDate: Timestamp
  /** 'rejected': Follow Up Boss refused the key (401/403); 'failing': it did not answer, or answered 5xx. */
  status: Defaulted<FubConnectorStatus>
  lastError: Nullable<string>
  lastErrorAt: NullableTimestamp
  /** The agent was mailed that this key was refused: once per key, not once per lead. */
  rejectionTold: Defaulted<boolean>
}

export type FubConnectorStatus = 'ok' | 'failing' | 'rejected'
export type FubDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'ignored' | 'failed'

/**
 * One guest sign-in for one agent's Follow Up Boss (decision 041). 'ignored': Follow Up Boss answered
 * 204 (the lead flow is archived); 'failed': its retries ran out, or an answer a retry cannot mend. A
 * pending, sending or failed row is a lead waiting: the connector's retry sends it.
 */
export interface FubDeliveryTable {
  id: Id
  reAgentId: number
  event: Json
  status: Defaulted<FubDeliveryStatus>
  attempts: Defaulted<number>
  leaseUntil: NullableTimestamp
  nextAttemptAt: NullableTimestamp
  lastAttemptAt: NullableTimestamp
  responseStatus: Nullable<number>
  lastError: Nullable<string>
  legacyJob: Nullable<string>
  createdDate: Timestamp
}

export type RoleChangeReason = 'granted' | 'declined' | 'firm-changed' | 'migrated'

/** Every change of a role held: to what, from what, by whom (a lead, or the operator) and why. */
export interface ReAgentRoleGrantTable {
  id: Id
  reAgentId: number
  reAgentRole: AgentRole
  previousRole: AgentRole
  grantedByReAgentId: Nullable<number>
  byOperator: Defaulted<boolean>
  reason: RoleChangeReason
  createdDate: Timestamp
}

/** A browser's Web Push subscription (RFC 8030), its owner's alone. */
export interface PushSubscriptionTable {
  id: Id
  reAgentId: number
  endpoint: string
  /** The browser's ECDH public key (P-256, base64url) and auth secret, for RFC 8291 encryption. */
  p256dh: string
  auth: string
  createdDate: Timestamp
  lastSuccessAt: NullableTimestamp
}

/** Which events an agent is told of by push, and its quiet hours in its time zone. */
export interface NotificationSettingTable {
  reAgentId: number
  events: ColumnType<string[], string[], string[]>
  quietStart: Nullable<string>
  quietEnd: Nullable<string>
  timeZone: Nullable<string>
  updatedAt: Timestamp
}

export type PushMessageStatus = 'pending' | 'sending' | 'sent' | 'gone' | 'expired' | 'failed'

/** One push to one subscription; the payload is sealed (an offer's holds a claim capability). */
export interface PushMessageTable {
  id: Id
  subscriptionId: number
  event: string
  openHouseId: Nullable<number>
  payload: string
  ttlSeconds: number
  urgency: string
  topic: string
  expiresAt: RequiredTimestamp
  status: Defaulted<PushMessageStatus>
  attempts: Defaulted<number>
  leaseUntil: NullableTimestamp
  sentAt: NullableTimestamp
  lastError: Nullable<string>
  createdDate: Timestamp
}

/** A single-use capability to claim one open house as one agent, from a notification. */
export interface PushClaimTokenTable {
  /** hex SHA-256 of the token */
  tokenHash: string
  reAgentId: number
  openHouseId: number
  expiresAt: RequiredTimestamp
  usedAt: NullableTimestamp
  createdDate: Timestamp
}

export interface Database {
  pushSubscription: PushSubscriptionTable
  notificationSetting: NotificationSettingTable
  pushMessage: PushMessageTable
  pushClaimToken: PushClaimTokenTable
  webhookEndpoint: WebhookEndpointTable
  webhookDelivery: WebhookDeliveryTable
  fubConnector: FubConnectorTable
  fubDelivery: FubDeliveryTable
  sellerReportLink: SellerReportLinkTable
  sellerReportMail: SellerReportMailTable
  calendarFeed: CalendarFeedTable
  guestToken: GuestTokenTable
  porchlightUser: PorchlightUserTable
  session: SessionTable
  emailCode: EmailCodeTable
  reAgent: ReAgentTable
  reAgentRoleGrant: ReAgentRoleGrantTable
  reProperty: RePropertyTable
  reInventory: ReInventoryTable
  openHouse: OpenHouseTable
  prospect: ProspectTable
  prospectNote: ProspectNoteTable
  openHouseAttendee: OpenHouseAttendeeTable
  openHouseQuestion: OpenHouseQuestionTable
  openHouseFeedback: OpenHouseFeedbackTable
  reTeam: ReTeamTable
  reTeamMember: ReTeamMemberTable
  pricingPlan: PricingPlanTable
  pricingPlanPurchase: PricingPlanPurchaseTable
  outbox: OutboxTable
  mail: MailTable
  consentEvent: ConsentEventTable
  unsubscribeToken: UnsubscribeTokenTable
  guestFollowUp: GuestFollowUpTable
  guestWelcome: GuestWelcomeTable
}
