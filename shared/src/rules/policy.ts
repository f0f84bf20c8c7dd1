// The one policy: who may do what for whom (docs/policy.md). Pure functions over facts the server loads
// once per request; routes, services, the socket server and the web's buttons all ask these, and nothing
// else decides. A role is not authority: it only says which relations an agent may enter into.

import { rooms } from '../events.ts'

export const FIRM_MEMBERSHIP_STATUSES = ['pending', 'verified', 'declined'] as const
export type FirmMembershipStatus = (typeof FIRM_MEMBERSHIP_STATUSES)[number]

export const INVITATION_STATUSES = ['invited', 'accepted', 'declined'] as const
export type InvitationStatus = (typeof INVITATION_STATUSES)[number]

/** The roles that may act for a teammate on the open houses they schedule (SPEC §5). */
export const SCHEDULER_ROLES = ['Team Lead', 'Admin Team Member'] as const

/** Facts about the signed-in agent, loaded once per request. */
export interface Actor {
  id: number
  role: string
  firmLicense: string
  /** Verified by a verified Team Lead / Admin Team Member of the firm, or by an operator. */
  firmVerified: boolean
  /** Teams it leads, co-leads or accepted to join (none while its firm membership is not verified). */
  teamIds: readonly number[]
  /** Agents who share one of those teams with it (their contact data is visible to it). */
  teammateIds: readonly number[]
  /**
   * Agents it may schedule for and act for on what it scheduled: the people of the teams it leads or
   * co-leads (an Admin Team Member: also of the teams it belongs to). Empty unless its role is a
   * scheduler role and its firm membership is verified.
   */
  actsForIds: readonly number[]
  /** Active teams it leads or co-leads (none while its firm membership is not verified). */
  ledTeamIds: readonly number[]
}

/** What the policy needs of an open house. */
export interface OpenHouseFacts {
  listingREAgentId: number
  hostingREAgentId: number | null
  scheduledByREAgentId: number
  publishLevel: string
  publishLevelId: string | null
  published: boolean
}

export type OpenHouseRelation = 'listing' | 'scheduler' | 'host' | 'offered'

export const OPEN_HOUSE_PERMISSIONS = [
  'view',
  'edit',
  'cancel',
  'publish',
  'clone',
  'claim',
  'withdraw',
  'manageAttendees',
  'sendHostingReport',
  'requestHostingReport',
  'viewAttendees',
  'printDoorSign',
  'shareSellerReport',
  'informSeller',
] as const
export type OpenHousePermission = (typeof OPEN_HOUSE_PERMISSIONS)[number]

const TEAM_LEVELS = new Set(['Real Estate Team', 'Real Estate Group', 'Partnered Team'])

export function isSchedulerRole(role: string): boolean {
  return (SCHEDULER_ROLES as readonly string[]).includes(role)
}

/** Whether an open house's publish level reaches the agent (Open To All, its verified firm, its teams). */
export function levelReaches(actor: Actor, level: { publishLevel: string; publishLevelId: string | null }) {
  if (level.publishLevel === 'Open To All') return true
  if (level.publishLevel === 'Market Center')
    return actor.firmVerified && level.publishLevelId === actor.firmLicense
  if (TEAM_LEVELS.has(level.publishLevel))
    return actor.teamIds.some((id) => String(id) === level.publishLevelId)
  return false
}

/** How the agent relates to the open house. */
export function openHouseRelations(actor: Actor, oh: OpenHouseFacts): Set<OpenHouseRelation> {
  const relations = new Set<OpenHouseRelation>()
  if (oh.listingREAgentId === actor.id) relations.add('listing')
  if (
    oh.scheduledByREAgentId === actor.id &&
    oh.listingREAgentId !== actor.id &&
    actor.actsForIds.includes(oh.listingREAgentId)
  )
    relations.add('scheduler')
  if (oh.hostingREAgentId !== null && oh.hostingREAgentId === actor.id) relations.add('host')
  if (oh.published && oh.publishLevel !== 'Hosting Myself' && levelReaches(actor, oh))
    relations.add('offered')
  return relations
}

/** Authority only; whether the open house's state allows it (canceled, hosted…) is the service's 409. */
export function mayOnOpenHouse(actor: Actor, permission: OpenHousePermission, oh: OpenHouseFacts): boolean {
  const r = openHouseRelations(actor, oh)
  const forListing = r.has('listing') || r.has('scheduler')
  switch (permission) {
    case 'view':
      return forListing || r.has('host') || r.has('offered')
    case 'edit':
    case 'cancel':
    case 'publish':
    case 'clone':
    case 'requestHostingReport':
      return forListing
    case 'claim':
      return r.has('offered') && !r.has('listing')
    case 'withdraw':
    case 'manageAttendees':
    case 'sendHostingReport':
      return r.has('host')
    case 'viewAttendees':
    case 'printDoorSign':
      return forListing || r.has('host')
    case 'shareSellerReport':
      return forListing
    // The seller's address is the listing agent's own client's: not its scheduler's to keep (decision 051).
    case 'informSeller':
      return r.has('listing')
  }
}

/** Every permission the agent holds on the open house (the web shows exactly these buttons). */
export function openHousePermissions(actor: Actor, oh: OpenHouseFacts): OpenHousePermission[] {
  return OPEN_HOUSE_PERMISSIONS.filter((p) => mayOnOpenHouse(actor, p, oh))
}

/** Whom an agent may schedule for: itself, or (Team Lead, Admin Team Member) an agent it acts for. */
export function maySchedulerFor(actor: Actor, listingAgentId: number): boolean {
  if (listingAgentId === actor.id) return true
  return isSchedulerRole(actor.role) && actor.actsForIds.includes(listingAgentId)
}

/** The agent at the door: the host, or the listing agent while it hosts itself or nobody hosts yet. */
export function doorAgentId(oh: { listingREAgentId: number; hostingREAgentId: number | null }): number {
  return oh.hostingREAgentId ?? oh.listingREAgentId
}

/** What the policy needs of another agent. */
export interface AgentFacts {
  id: number
  firmLicense: string
  firmVerified: boolean
  /** The role it holds (granted), where the question depends on it. */
  role?: string
}

/** How much of an agent's profile the caller sees: null means it does not exist for the caller. */
export type AgentView = 'full' | 'contact' | 'name' | null

export function agentView(actor: Actor, target: AgentFacts): AgentView {
  if (target.id === actor.id) return 'full'
  if (actor.teammateIds.includes(target.id)) return 'contact'
  if (actor.firmVerified && target.firmVerified && target.firmLicense === actor.firmLicense) return 'name'
  return null
}

/** The firm's roster (names) is for its verified members only. */
export function mayReadRoster(actor: Actor, firmLicense: string): boolean {
  return actor.firmVerified && actor.firmLicense === firmLicense
}

/**
 * A verified Team Lead or Admin Team Member of the firm approves or declines who joins it. Declining a
 * member who holds a granted role also takes the role: only a Team Lead may (as only it grants them).
 * The role is the one held, which only a grant changes (never the agent's own profile).
 */
export function mayDecideFirmMembership(actor: Actor, target?: AgentFacts): boolean {
  if (!actor.firmVerified || !isSchedulerRole(actor.role)) return false
  if (!target) return true
  if (target.id === actor.id || target.firmLicense !== actor.firmLicense) return false
  return !target.role || !isSchedulerRole(target.role) || actor.role === 'Team Lead'
}

/**
 * An agent whose firm membership is not verified (the first of its firm has nobody to verify it) may
 * ask the operator to verify it; about itself only (the route takes no other agent).
 */
export function mayAskFirmVerification(actor: Actor): boolean {
  return !actor.firmVerified
}

/**
 * Team Lead and Admin Team Member are granted (and revoked, by granting Real Estate Agent) by a verified
 * Team Lead of the same firm, to another of its members; or by the operator, outside this policy.
 */
export function mayGrantFirmRole(actor: Actor, target?: AgentFacts): boolean {
  if (!actor.firmVerified || actor.role !== 'Team Lead') return false
  return !target || (target.id !== actor.id && target.firmLicense === actor.firmLicense)
}

/** What the policy needs of a team. */
export interface TeamFacts {
  reTeamLeadId: number
  reCoTeamLeadId: number | null
  /** The caller's own membership, if any. */
  invitationStatus: InvitationStatus | null
}

export type TeamPermission = 'view' | 'edit' | 'manageMembers' | 'readMembers' | 'respondToInvitation'

/** 'lead' or 'coLead' of the team, or null. */
export function leadsTeam(
  agentId: number,
  team: { reTeamLeadId: number; reCoTeamLeadId: number | null },
): 'lead' | 'coLead' | null {
  if (team.reTeamLeadId === agentId) return 'lead'
  if (team.reCoTeamLeadId === agentId) return 'coLead'
  return null
}

export function mayOnTeam(actor: Actor, permission: TeamPermission, team: TeamFacts): boolean {
  const lead = leadsTeam(actor.id, team) === 'lead'
  const coLead = leadsTeam(actor.id, team) === 'coLead'
  const member = team.invitationStatus === 'accepted'
  const invited = team.invitationStatus === 'invited'
  switch (permission) {
    case 'view':
      return lead || coLead || member || invited
    case 'edit':
      return lead
    case 'manageMembers':
      return (lead || coLead) && actor.firmVerified
    case 'readMembers':
      return lead || coLead || member
    case 'respondToInvitation':
      return invited || member
  }
}

/** Teams are made of verified agents of one firm. */
export function mayJoinTeamOf(lead: AgentFacts, candidate: AgentFacts): boolean {
  return lead.firmVerified && candidate.firmVerified && candidate.firmLicense === lead.firmLicense
}

/** What the policy needs of a prospect seen by an agent. */
export interface ProspectFacts {
  createdByREAgentId: number
  /** Visits at open houses the caller lists, schedules or hosts; whether each consented to the listing agent. */
  visits: ReadonlyArray<{
    listingREAgentId: number
    hostingREAgentId: number | null
    scheduledByREAgentId: number
    listingAgentConsent: boolean
  }>
}

/** 'full' for the agent whose lead it is or a listing agent the guest consented to; 'masked' otherwise. */
export function prospectView(actor: Actor, p: ProspectFacts): 'full' | 'masked' | null {
  if (p.createdByREAgentId === actor.id) return 'full'
  if (p.visits.some((v) => v.listingREAgentId === actor.id && v.listingAgentConsent)) return 'full'
  const involved = (v: ProspectFacts['visits'][number]) =>
    v.listingREAgentId === actor.id ||
    v.hostingREAgentId === actor.id ||
    (v.scheduledByREAgentId === actor.id && actor.actsForIds.includes(v.listingREAgentId))
  if (p.visits.some(involved)) return 'masked'
  return null
}

/** What the policy needs of a property. */
export interface PropertyFacts {
  /** Agents who own it: who typed it in, whose inventory holds it, who lists or hosts an open house at it. */
  ownerIds: readonly number[]
  /** It has a published or hosted open house, so its address is public. */
  onShow: boolean
}

export function mayViewProperty(actor: Actor | null, p: PropertyFacts): boolean {
  return p.onShow || (actor !== null && p.ownerIds.includes(actor.id))
}

/** The rooms an agent's socket joins on connect. */
export function agentRooms(actor: Actor): string[] {
  return [
    rooms.agent(actor.id),
    rooms.marketAll,
    ...(actor.firmVerified ? [rooms.marketFirm(actor.firmLicense)] : []),
    ...actor.teamIds.map(rooms.team),
  ]
}

/**
 * "Your own id" routes (an agent's lists, feeds, statistics, integrations and plan; a user's own account):
 * the id asked for is the caller's own, else 403. Routes ask it through `requireSelf`
 * (server/src/policy/require-self.ts), and services then read the caller's id only.
 */
export function asksForSelf(caller: { id: number }, askedId: number): boolean {
  return caller.id === askedId
}

/**
 * An inventory item is its owner's alone: another agent's item does not exist for the caller (404), and
 * an agent adds items to its own inventory only.
 */
export function mayOwnInventory(actor: { id: number }, item: { owningREAgentId: number }): boolean {
  return item.owningREAgentId === actor.id
}

/** An agent profile is its user's own: only that user edits it (403 for another's). */
export function mayOwnAgentProfile(user: { id: number }, agent: { porchlightUserId: number }): boolean {
  return agent.porchlightUserId === user.id
}

/** A plan purchase is the agent's own: it sees and changes its own purchases only (404 for another's). */
export function mayOwnPurchase(actor: { id: number }, purchase: { reAgentId: number }): boolean {
  return purchase.reAgentId === actor.id
}

/**
 * The owner's own business with a lead — its stage, next follow-up date and notes: the owner's alone.
 * An agent who may see the guest (listing or hosting agent of an open house it attended) does not
 * learn it exists (404), as anyone else.
 */
export function mayKeepProspect(
  actor: { id: number },
  p: Pick<ProspectFacts, 'createdByREAgentId'>,
): boolean {
  return p.createdByREAgentId === actor.id
}

/** What the policy needs of a webhook endpoint (and of the deliveries in its log). */
export interface WebhookEndpointFacts {
  ownerREAgentId: number
  /** Set for a team's endpoint. */
  teamId: number | null
}

/**
 * An agent's webhook endpoints, their delivery logs, replays and test events: its own alone. A team's
 * endpoint: the team's lead and co-lead, whoever registered it (a lead who steps down loses it). Anyone
 * else does not learn an endpoint exists (404); the list by agent id is 403 for another agent's id.
 */
export function mayManageWebhookEndpoint(actor: Actor, endpoint: WebhookEndpointFacts): boolean {
  if (endpoint.teamId !== null) return actor.ledTeamIds.includes(endpoint.teamId)
  return endpoint.ownerREAgentId === actor.id
}

/** A team endpoint is registered by the team's lead or co-lead. */
export function mayAddTeamWebhookEndpoint(actor: Actor, teamId: number): boolean {
  return actor.ledTeamIds.includes(teamId)
}

/**
 * An agent's push subscriptions and notification settings: its own alone. Anyone else does not learn a
 * subscription exists (404).
 */
export function mayManagePushSubscription(actor: Actor, subscription: { ownerREAgentId: number }): boolean {
  return subscription.ownerREAgentId === actor.id
}
