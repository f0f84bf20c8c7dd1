import { createHash, randomBytes } from 'node:crypto'
import {
  type Actor,
  type AgentFacts,
  isSchedulerRole,
  mayManagePushSubscription,
  mayManageWebhookEndpoint,
  mayOnOpenHouse,
  type OpenHouseFacts,
  type OpenHousePermission,
  type PropertyFacts,
  type ProspectFacts,
} from '@porchlight/shared'
import { type RawBuilder, sql } from 'kysely'
import { compiledOnce, type Params } from '../db/compiled-once.ts'
import type { Db } from '../db/database.ts'
import type { Trx } from '../db/transaction.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'
import { batched } from '../lib/batched.ts'

/** What the policy needs of the caller's own agent row. */
export interface AgentLike {
  id: number
  reAgentRole: string
  reAgentBrokerFirmLicense: string
  firmMembershipStatus: string
}

/**
 * Loads the facts the policy (shared/src/rules/policy.ts) decides on, each in one statement, and asks
 * it. The one place the server decides who may act for whom; it holds no rule of its own.
 */
export function createAccess(db: Db) {
  // Facts of a caller, loaded once per agent row: once per request, or once while the session cache
  // keeps that row (it drops the row on any change to agents or teams, and these facts with it).
  const actors = new WeakMap<object, Promise<Actor>>()

  // Read for an agent whose facts did not come with its session (actorTeamsColumn): built once
  // (compiled-once.ts), and shared by the agents whose requests ask at the same moment.
  const teamsOfAgents = compiledOnce(
    db,
    'teams-of-agents',
    (v: Params<{ ids: number[]; firmLicenses: Array<string | null> }>) => ({
      compile: () =>
        sql<{ asked: number; teamId: number; leads: boolean; member: boolean; personId: number | null }>`
      select who.asked, teams.*
      from unnest(${v.ids}::bigint[], ${v.firmLicenses}::text[]) with ordinality as who(id, firm_license, asked)
      cross join lateral (${teamsOfOne(sql.ref('who.id'), sql.ref('who.firmLicense'))}) teams
    `.compile(db),
    }),
  )
  const teamsOf = batched(async (agents: Array<{ id: number; firmLicense: string | null }>) => {
    const rows = await teamsOfAgents({
      ids: agents.map((a) => a.id),
      firmLicenses: agents.map((a) => a.firmLicense),
    })
    // `asked` counts from 1, in the order the agents were asked for.
    const each = agents.map((): TeamRow[] => [])
    for (const row of rows) each[row.asked - 1]?.push([row.teamId, row.leads, row.member, row.personId])
    return each
  })

  async function loadActor(agent: AgentLike): Promise<Actor> {
    if (agent.firmMembershipStatus !== 'verified') return actorOf(agent, null)
    return actorOf(agent, await teamsOf({ id: agent.id, firmLicense: agent.reAgentBrokerFirmLicense }))
  }

  function actor(agent: AgentLike): Promise<Actor> {
    let facts = actors.get(agent)
    if (!facts) {
      facts = loadActor(agent)
      actors.set(agent, facts)
      // A failed load is not kept: the next request asks again.
      facts.catch(() => actors.delete(agent))
    }
    return facts
  }

  async function openHouseFacts(id: number, trx: Db | Trx = db): Promise<OpenHouseFacts | undefined> {
    const row = await trx
      .selectFrom('openHouse')
      .select(OPEN_HOUSE_FACT_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst()
    return row && toOpenHouseFacts(row)
  }

  /** 404 when the actor may not see the open house (or there is none), 403 when it may not do this. */
  function allowedOn(who: Actor, permission: OpenHousePermission, oh: OpenHouseFacts | undefined) {
    if (!oh || !mayOnOpenHouse(who, 'view', oh)) throw new NotFoundError()
    if (!mayOnOpenHouse(who, permission, oh)) throw new ForbiddenError(forbiddenText[permission])
    return oh
  }

  return {
    actor,

    /**
     * The facts of an agent row read with `actorTeamsColumn` (the session's read): `actor` answers them
     * for that row without reading again, for as long as the row is kept.
     */
    actorRead(agent: AgentLike, teams: TeamRow[] | null): void {
      if (!actors.has(agent)) actors.set(agent, Promise.resolve(actorOf(agent, teams)))
    },

    /** Facts of the caller's actor row changed (a team joined, a firm verified): load them again. */
    forget(agent: AgentLike) {
      actors.delete(agent)
    },

    openHouseFacts,

    /**
     * The open house if the caller may do `permission` on it. One answer for "not yours": 404 when the
     * caller may not even see it, 403 when it sees it but may not do this.
     */
    async openHouse(
      agent: AgentLike,
      permission: OpenHousePermission,
      id: number,
      trx?: Db | Trx,
    ): Promise<OpenHouseFacts> {
      const [who, oh] = await Promise.all([actor(agent), openHouseFacts(id, trx)])
      return allowedOn(who, permission, oh)
    },

    /** `openHouse` for an actor and a row already in hand: the same answers, without reading again. */
    allowedOn,

    async agentFacts(id: number, trx: Db | Trx = db): Promise<AgentFacts | undefined> {
      const row = await trx
        .selectFrom('reAgent')
        .select(['id', 'reAgentBrokerFirmLicense', 'firmMembershipStatus'])
        .where('id', '=', id)
        .executeTakeFirst()
      return row && toAgentFacts(row)
    },

    /** The prospect's visits at open houses the agent lists or hosts. */
    async prospectFacts(prospectId: number, agentId: number): Promise<ProspectFacts | undefined> {
      const prospect = await db
        .selectFrom('prospect')
        .select('createdByReAgentId')
        .where('id', '=', prospectId)
        .executeTakeFirst()
      if (!prospect) return undefined
      const visits = await db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('openHouse as oh', 'oh.id', 'a.openHouseId')
        .select([
          'oh.listingReAgentId',
          'oh.hostingReAgentId',
          'oh.scheduledByReAgentId',
          'a.listingAgentConsent',
        ])
        .where('a.prospectId', '=', prospectId)
        .where((eb) =>
          eb.or([
            eb('oh.listingReAgentId', '=', agentId),
            eb('oh.hostingReAgentId', '=', agentId),
            eb('oh.scheduledByReAgentId', '=', agentId),
          ]),
        )
        .execute()
      return {
        createdByREAgentId: prospect.createdByReAgentId,
        visits: visits.map((v) => ({
          listingREAgentId: v.listingReAgentId,
          hostingREAgentId: v.hostingReAgentId,
          scheduledByREAgentId: v.scheduledByReAgentId,
          listingAgentConsent: v.listingAgentConsent,
        })),
      }
    },

    /**
     * The guest's capability for its visit: a 256-bit random token answered once, only its SHA-256
     * stored (`tokenHash`), bound to that one visit (decision 029). The sign-in stores it with the visit
     * it makes, in one statement; `issueGuestToken` stores another for a visit answered again (a retry).
     */
    newGuestToken,

    async issueGuestToken(
      trx: Trx,
      visit: { id: number; prospectId: number; openHouseId: number },
    ): Promise<string> {
      const { token, tokenHash } = newGuestToken()
      await trx
        .insertInto('guestToken')
        .values({
          tokenHash,
          prospectId: visit.prospectId,
          openHouseId: visit.openHouseId,
          attendeeId: visit.id,
        })
        .execute()
      return token
    },

    /**
     * The visit a guest token opens, if it is one at this open house: its feedback, and nothing of any
     * other visit of the same prospect.
     */
    async guestVisit(
      token: string,
      openHouseId: number,
    ): Promise<{ id: number; prospectId: number; openHouseId: number } | undefined> {
      return db
        .selectFrom('guestToken')
        .select(['attendeeId as id', 'prospectId', 'openHouseId'])
        .where('tokenHash', '=', hashToken(token))
        .where('openHouseId', '=', openHouseId)
        .executeTakeFirst()
    },

    /** The endpoint if the caller may manage it; 404 otherwise (ids reveal nothing). */
    async webhookEndpoint(agent: AgentLike, endpointId: number): Promise<void> {
      const row = await db
        .selectFrom('webhookEndpoint')
        .select(['reAgentId', 'teamId'])
        .where('id', '=', endpointId)
        .executeTakeFirst()
      if (
        !row ||
        !mayManageWebhookEndpoint(await actor(agent), { ownerREAgentId: row.reAgentId, teamId: row.teamId })
      ) {
        throw new NotFoundError()
      }
    },

    /** A delivery of an endpoint the caller may manage; 404 otherwise. */
    async webhookDelivery(agent: AgentLike, deliveryId: number): Promise<{ endpointId: number }> {
      const row = await db
        .selectFrom('webhookDelivery as d')
        .innerJoin('webhookEndpoint as e', 'e.id', 'd.endpointId')
        .select(['d.endpointId', 'e.reAgentId', 'e.teamId'])
        .where('d.id', '=', deliveryId)
        .executeTakeFirst()
      if (
        !row ||
        !mayManageWebhookEndpoint(await actor(agent), { ownerREAgentId: row.reAgentId, teamId: row.teamId })
      ) {
        throw new NotFoundError()
      }
      return { endpointId: row.endpointId }
    },

    /** A push subscription the caller may manage; 404 otherwise (ids reveal nothing). */
    async pushSubscription(agent: AgentLike, subscriptionId: number): Promise<void> {
      const row = await db
        .selectFrom('pushSubscription')
        .select(['reAgentId'])
        .where('id', '=', subscriptionId)
        .executeTakeFirst()
      if (!row || !mayManagePushSubscription(await actor(agent), { ownerREAgentId: row.reAgentId })) {
        throw new NotFoundError()
      }
    },

    async propertyFacts(propertyId: number): Promise<PropertyFacts | undefined> {
      const { rows } = await sql<{ ownerIds: number[] | null; onShow: boolean }>`
        select
          (select array_agg(distinct o) from (
             select p.created_by_re_agent_id as o
             union all select i.owning_re_agent_id from re_inventory i
               where i.re_property_id = p.id and not i.re_inventory_property_delete_flag
             union all select oh.listing_re_agent_id from open_house oh where oh.re_property_id = p.id
             union all select oh.hosting_re_agent_id from open_house oh where oh.re_property_id = p.id
           ) owners where o is not null) as owner_ids,
          exists (select 1 from open_house oh where oh.re_property_id = p.id
                  and not oh.open_house_canceled_flag
                  and (oh.published_at is not null or oh.hosting_re_agent_id is not null)) as on_show
        from re_property p where p.id = ${propertyId}`.execute(db)
      const row = rows[0]
      // bigint[] arrives as strings.
      return row && { ownerIds: (row.ownerIds ?? []).map(Number), onShow: row.onShow }
    },
  }
}

/** One of an agent's teams with one of its people: team id, led by the agent, a member of it, person (or null). */
export type TeamRow = [teamId: number, leads: boolean, member: boolean, personId: number | null]

/**
 * Every active team the agent leads, co-leads or accepted, with everyone in it: lead, co-lead and
 * accepted members who are still verified members of the same firm (one row each; a team whose people
 * are none of them, one row with a null person). `id` and `firmLicense` are the agent's, as SQL.
 */
function teamsOfOne(id: RawBuilder<unknown>, firmLicense: RawBuilder<unknown>) {
  return sql<{ teamId: number; leads: boolean; member: boolean; personId: number | null }>`
        -- The agent's teams found through three indexes (lead, co-lead, membership), not one pass over
        -- every team: at 10,000 teams, 2.7 ms for 200 agents where that pass took 190 ms.
        with mine as (
          select t.id, bool_or(l.leads) as leads, bool_or(not l.leads) as member
          from (
            select t.id, true as leads from re_team t where t.re_team_lead_id = ${id}
            union all
            select t.id, true from re_team t where t.re_co_team_lead_id = ${id}
            union all
            select m.re_team_id, false from re_team_member m
              where m.re_agent_id = ${id} and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) l
          join re_team t on t.id = l.id and t.re_team_active_flag
          group by t.id
        ), people as (
          select t.id as team_id, p.person_id
          from mine t
          join re_team rt on rt.id = t.id
          cross join lateral (
            select rt.re_team_lead_id as person_id
            union select rt.re_co_team_lead_id where rt.re_co_team_lead_id is not null
            union select m.re_agent_id from re_team_member m
              where m.re_team_id = rt.id and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) p
        )
        select mine.id as team_id, mine.leads, mine.member, a.id as person_id
        from mine
        left join people on people.team_id = mine.id
        left join re_agent a on a.id = people.person_id and a.firm_membership_status = 'verified'
          and a.re_agent_broker_firm_license = ${firmLicense}`
}

/**
 * The policy's facts of the agent in `agentTable`, as one column of the statement that reads the agent
 * (the session's read): its teams as TeamRows (JSON), null unless its firm membership is verified.
 * Given to `actorRead` with the row, they spare the request the read `actor` would make.
 */
export function actorTeamsColumn(agentTable: string) {
  const column = (name: string) => sql.ref(`${agentTable}.${name}`)
  return sql<TeamRow[] | null>`case when ${column('firmMembershipStatus')} = 'verified' then (
    select coalesce(json_agg(json_build_array(teams.team_id, teams.leads, teams.member, teams.person_id)), '[]')
    from (${teamsOfOne(column('id'), column('reAgentBrokerFirmLicense'))}) teams
  ) end`
}

/** The policy's facts of an agent from its row and its teams (null: its firm membership is not verified). */
function actorOf(agent: AgentLike, teams: readonly TeamRow[] | null): Actor {
  const verified = agent.firmMembershipStatus === 'verified'
  const base: Actor = {
    id: agent.id,
    role: agent.reAgentRole,
    firmLicense: agent.reAgentBrokerFirmLicense,
    firmVerified: verified,
    teamIds: [],
    teammateIds: [],
    actsForIds: [],
    ledTeamIds: [],
  }
  if (!verified || !teams) return base
  const teamIds = new Set<number>()
  const led = new Set<number>()
  const teammates = new Set<number>()
  const actsFor = new Set<number>()
  const scheduler = isSchedulerRole(agent.reAgentRole)
  for (const [teamId, leads, member, personId] of teams) {
    teamIds.add(teamId)
    if (leads) led.add(teamId)
    if (personId === null || personId === agent.id) continue
    teammates.add(personId)
    if (scheduler && (leads || (agent.reAgentRole === 'Admin Team Member' && member))) actsFor.add(personId)
  }
  return {
    ...base,
    teamIds: [...teamIds],
    teammateIds: [...teammates],
    actsForIds: [...actsFor],
    ledTeamIds: [...led],
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

function newGuestToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashToken(token) }
}

const forbiddenText: Record<OpenHousePermission, string> = {
  view: 'You may not see this open house',
  edit: 'Only the listing agent may do this',
  cancel: 'Only the listing agent may do this',
  publish: 'Only the listing agent may publish',
  clone: 'Only the listing agent may do this',
  claim: 'This open house is not offered to you',
  withdraw: 'Only the hosting agent may withdraw',
  manageAttendees: 'Only the hosting agent may do this',
  sendHostingReport: 'Only the hosting agent may send this report',
  requestHostingReport: 'Only the listing agent may request this report',
  viewAttendees: 'Only the listing or hosting agent may do this',
  printDoorSign: 'Only the listing or hosting agent may print the door sign',
  shareSellerReport: 'Only the listing agent may share the seller report',
  informSeller: "Only the listing agent may keep the seller's email",
}

/** The open house's columns the policy decides on (toOpenHouseFacts): a statement that answers with facts selects these. */
export const OPEN_HOUSE_FACT_COLUMNS = [
  'listingReAgentId',
  'hostingReAgentId',
  'scheduledByReAgentId',
  'publishLevel',
  'publishLevelId',
  'publishedAt',
] as const

export function toOpenHouseFacts(row: {
  listingReAgentId: number
  hostingReAgentId: number | null
  scheduledByReAgentId: number
  publishLevel: string
  publishLevelId: string
  publishedAt: Date | string | null
}): OpenHouseFacts {
  return {
    listingREAgentId: row.listingReAgentId,
    hostingREAgentId: row.hostingReAgentId,
    scheduledByREAgentId: row.scheduledByReAgentId,
    publishLevel: row.publishLevel,
    publishLevelId: row.publishLevelId,
    published: row.publishedAt !== null,
  }
}

export function toAgentFacts(row: {
  id: number
  reAgentBrokerFirmLicense: string
  firmMembershipStatus: string
  reAgentRole?: string
}): AgentFacts {
  return {
    id: row.id,
    firmLicense: row.reAgentBrokerFirmLicense,
    firmVerified: row.firmMembershipStatus === 'verified',
    ...(row.reAgentRole === undefined ? {} : { role: row.reAgentRole }),
  }
}

export type Access = ReturnType<typeof createAccess>
