import { type Actor, TEAM_PUBLISH_LEVELS } from '@porchlight/shared'
import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely'
import { jsonObjectFrom } from 'kysely/helpers/postgres'
import { type Bindable, compiledOnce, type Param, type Params } from '../../db/compiled-once.ts'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, OpenHouseTable } from '../../db/types.ts'
import { OPEN_HOUSE_FACT_COLUMNS } from '../../policy/access.ts'

type Eb = ExpressionBuilder<Database, 'openHouse'>

/** Where a viewer may be offered open houses: its verified firm's license, its teams (as level ids). */
export interface Reach {
  firmLevelId: string | null
  teamLevelIds: readonly string[]
}

export function reachOf(viewer: Actor): Reach {
  return {
    firmLevelId: viewer.firmVerified ? viewer.firmLicense : null,
    teamLevelIds: viewer.teamIds.map(String),
  }
}

/**
 * The policy's levelReaches (shared/src/rules/policy.ts) as SQL, for lists and the claim statement. The
 * viewer's facts are values only (no firm: null, no team: an empty list), so the statement's text is the
 * same for every viewer and the claim can be compiled once (compiled-once.ts).
 */
export function eligibleFor(eb: Eb, reach: Bindable<Reach>) {
  return eb.or([
    eb('openHouse.publishLevel', '=', 'Open To All'),
    eb.and([
      eb('openHouse.publishLevel', '=', 'Market Center'),
      eb('openHouse.publishLevelId', '=', reach.firmLevelId),
    ]),
    eb.and([
      eb('openHouse.publishLevel', 'in', [...TEAM_PUBLISH_LEVELS]),
      eb('openHouse.publishLevelId', '=', sql<string>`any(${sql.val(reach.teamLevelIds)}::text[])`),
    ]),
  ])
}

/**
 * Over: its own end instant has passed, or — while its times are still to pick — its date is before
 * today where the house is (open_house_timezone). Never the database's own calendar day.
 */
const over = sql<boolean>`(
  (open_house.ends_at is not null and open_house.ends_at < now())
  or (open_house.ends_at is null and open_house.scheduled_date is not null
      and open_house.scheduled_date < (now() at time zone open_house.open_house_timezone)::date)
)`
const notOver = sql<boolean>`not ${over}`

/** On offer to others: published, not hosted, not canceled, not over. */
function onOffer(eb: Eb) {
  return eb.and([
    eb('openHouse.publishedAt', 'is not', null),
    eb('openHouse.hostingReAgentId', 'is', null),
    eb('openHouse.openHouseCanceledFlag', '=', false),
    eb('openHouse.publishLevel', '!=', 'Hosting Myself'),
    notOver,
  ])
}

/** On offer, not the viewer's own listing, and offered where the viewer is. */
function claimableBy(eb: Eb, viewerId: number | Param<number>, reach: Bindable<Reach>) {
  return eb.and([onOffer(eb), eb('openHouse.listingReAgentId', '!=', viewerId), eligibleFor(eb, reach)])
}

/** Open houses the agent lists or hosts, or scheduled for an agent it still acts for. */
function mine(eb: Eb, viewer: Actor) {
  const ways = [
    eb('openHouse.listingReAgentId', '=', viewer.id),
    eb('openHouse.hostingReAgentId', '=', viewer.id),
  ]
  if (viewer.actsForIds.length > 0) {
    ways.push(
      eb.and([
        eb('openHouse.scheduledByReAgentId', '=', viewer.id),
        eb('openHouse.listingReAgentId', 'in', [...viewer.actsForIds]),
      ]),
    )
  }
  return eb.or(ways)
}

/**
 * What a claim's answer needs of the open house: the policy's facts, the rooms to tell, whether it is
 * canceled or still needs a date. A race returns the row to each of its losers, so no more than this.
 */
const claimColumns = [
  'id',
  ...OPEN_HOUSE_FACT_COLUMNS,
  'openHouseCanceledFlag',
  'scheduledDate',
  'scheduledStartTime',
  'scheduledEndTime',
] as const

const fullName = (alias: 'la' | 'ha' | 'sa') =>
  sql<string>`${sql.ref(`${alias}.re_agent_first_name`)} || ' ' || ${sql.ref(`${alias}.re_agent_last_name`)}`

export function createOpenHouseRepo(db: Db) {
  // 199 of a race's 200 claims lose: built once, each runs with its own values (compiled-once.ts).
  const claimOrCurrent = compiledOnce(
    db,
    'claim-or-current',
    (v: Params<{ id: number; viewerId: number; at: Date } & Reach>) =>
      db
        .with('claimed', (qb) =>
          qb
            .updateTable('openHouse')
            .set({ hostingReAgentId: v.viewerId, updatedDate: v.at })
            .where('id', '=', v.id)
            .where((eb) => claimableBy(eb, v.viewerId, v))
            .where('scheduledDate', 'is not', null)
            .where('scheduledStartTime', '!=', 'Choose Your Own (Flexi Time)')
            .where('scheduledEndTime', '!=', 'Choose Your Own (Flexi Time)')
            .returning(claimColumns),
        )
        .selectFrom('claimed')
        .selectAll('claimed')
        .select(sql<boolean>`true`.as('won'))
        .unionAll((eb) =>
          eb
            .selectFrom('openHouse')
            .select(claimColumns)
            .select(sql<boolean>`false`.as('won'))
            .where('openHouse.id', '=', v.id)
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom('claimed').select('claimed.id')))),
        ),
  )
  function withSupport(q: Db | Trx = db) {
    return q
      .selectFrom('openHouse')
      .innerJoin('reAgent as la', 'la.id', 'openHouse.listingReAgentId')
      .leftJoin('reAgent as ha', 'ha.id', 'openHouse.hostingReAgentId')
      .innerJoin('reAgent as sa', 'sa.id', 'openHouse.scheduledByReAgentId')
      .selectAll('openHouse')
      .select((eb) => [
        fullName('la').as('listingName'),
        'la.reAgentBrokerFirmName as listingBrokerage',
        fullName('sa').as('schedulerName'),
        sql<string | null>`case when ha.id is null then null else ${fullName('ha')} end`.as('hostingName'),
        // A copy an agent asked for (not the weekly auto-clone): the date of the open house it copies.
        sql<string | null>`(select src.scheduled_date from open_house src
          where src.id = open_house.cloned_from_open_house_id
            and open_house.auto_clone_of_open_house_id is null)`.as('copyOfDate'),
        sql<boolean>`open_house.cloned_from_open_house_id is not null
          and open_house.auto_clone_of_open_house_id is null`.as('isCopy'),
        jsonObjectFrom(
          eb.selectFrom('reProperty').selectAll().whereRef('reProperty.id', '=', 'openHouse.rePropertyId'),
        ).as('property'),
      ])
  }

  return {
    participants(id: number) {
      return db
        .selectFrom('openHouse')
        .select(['id', 'listingReAgentId', 'hostingReAgentId'])
        .where('id', '=', id)
        .executeTakeFirst()
    },

    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('openHouse').selectAll().where('id', '=', id).executeTakeFirst()
    },

    details(id: number, trx: Db | Trx = db) {
      return withSupport(trx).where('openHouse.id', '=', id).executeTakeFirst()
    },

    create(values: Insertable<OpenHouseTable>, trx: Trx) {
      return trx.insertInto('openHouse').values(values).returning('id').executeTakeFirstOrThrow()
    },

    update(id: number, values: Updateable<OpenHouseTable>, trx: Db | Trx = db) {
      return trx
        .updateTable('openHouse')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()
    },

    /** Upcoming for an agent who lists, hosts or scheduled: soonest first, flexible dates last. */
    upcoming(viewer: Actor, limit: number, offset: number) {
      return withSupport()
        .where((eb) => eb.and([mine(eb, viewer), notOver]))
        .orderBy(sql`scheduled_date asc nulls last`)
        .orderBy('openHouse.id')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    past(viewer: Actor, limit: number, offset: number) {
      return withSupport()
        .where((eb) => eb.and([mine(eb, viewer), over]))
        .orderBy('openHouse.scheduledDate', 'desc')
        .orderBy('openHouse.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    availableToHost(viewer: Actor, limit: number, offset: number) {
      return withSupport()
        .where((eb) => claimableBy(eb, viewer.id, reachOf(viewer)))
        .orderBy(sql`scheduled_date asc nulls last`)
        .orderBy('openHouse.id')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    /**
     * The claim without a schedule, and for a loser the row as it stood, in one statement: `won` says
     * which. The row a loser reads is the statement's snapshot (a rival that committed meanwhile may not
     * show as the host yet); nothing answers "claimed" from it but the lost race itself.
     */
    async claimOrCurrent(id: number, viewer: Actor) {
      const [row] = await claimOrCurrent({ id, viewerId: viewer.id, at: new Date(), ...reachOf(viewer) })
      return row
    },

    /**
     * The claim that fixes a flexible date/time in the same statement. Zero rows means someone else won,
     * or it was never on offer to the viewer.
     */
    claimWithSchedule(
      id: number,
      viewer: Actor,
      schedule: {
        scheduledDate: string
        scheduledStartTime: string
        scheduledEndTime: string
        startsAt: Date | null
        endsAt: Date | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('openHouse')
        .set({ hostingReAgentId: viewer.id, updatedDate: new Date(), ...(schedule as object) })
        .where('id', '=', id)
        .where((eb) => claimableBy(eb, viewer.id, reachOf(viewer)))
        .returningAll()
        .executeTakeFirst()
    },

    withdraw(id: number, hostId: number) {
      return db
        .updateTable('openHouse')
        .set({ hostingReAgentId: null, updatedDate: new Date() })
        .where('id', '=', id)
        .where('hostingReAgentId', '=', hostId)
        .where('openHouseCanceledFlag', '=', false)
        .where('publishLevel', '!=', 'Hosting Myself')
        .returningAll()
        .executeTakeFirst()
    },

    cancel(id: number, listingId: number, reason: string) {
      return db
        .updateTable('openHouse')
        .set({ openHouseCanceledFlag: true, openHouseCancelReason: reason as never, updatedDate: new Date() })
        .where('id', '=', id)
        .where('listingReAgentId', '=', listingId)
        .where('openHouseCanceledFlag', '=', false)
        .returningAll()
        .executeTakeFirst()
    },

    /** The listing agent's name and address, the ORGANIZER of the open house's calendar event. */
    organizerOf(agentId: number) {
      return db
        .selectFrom('reAgent')
        .select(['reAgentFirstName', 'reAgentLastName', 'reAgentEmailId'])
        .where('id', '=', agentId)
        .executeTakeFirst()
    },

    /** Who a team publish invites: the team's lead, co-lead and members, less the listing agent and publisher. */
    teamInvitees(teamId: number, except: number[], trx: Db | Trx = db) {
      return trx
        .selectFrom('reAgent')
        .select(['reAgent.id', 'reAgent.reAgentEmailId', 'reAgent.reAgentFirstName'])
        .where('reAgent.id', 'not in', except)
        .where((eb) =>
          eb.or([
            eb(
              'reAgent.id',
              'in',
              eb
                .selectFrom('reTeamMember')
                .select('reTeamMember.reAgentId')
                .where('reTeamMember.reTeamId', '=', teamId)
                .where('reTeamMember.invitationStatus', '=', 'accepted'),
            ),
            eb(
              'reAgent.id',
              'in',
              eb.selectFrom('reTeam').select('reTeam.reTeamLeadId').where('reTeam.id', '=', teamId),
            ),
            eb(
              'reAgent.id',
              'in',
              eb
                .selectFrom('reTeam')
                .select('reTeam.reCoTeamLeadId')
                .where('reTeam.id', '=', teamId)
                .where('reTeam.reCoTeamLeadId', 'is not', null),
            ),
          ]),
        )
        .orderBy('reAgent.id')
        .execute()
    },

    autoCloneExists(id: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('openHouse')
        .select('id')
        .where('autoCloneOfOpenHouseId', '=', id)
        .executeTakeFirst()
        .then(Boolean)
    },

    /** The dates the property's open houses hold (not canceled, not flexible), as the unique index sees them. */
    async bookedDates(propertyId: number, trx: Trx): Promise<string[]> {
      const rows = await trx
        .selectFrom('openHouse')
        .select('scheduledDate')
        .where('rePropertyId', '=', propertyId)
        .where('openHouseCanceledFlag', '=', false)
        .where('scheduledDate', 'is not', null)
        .execute()
      return rows.map((r) => String(r.scheduledDate))
    },

    /** Serialises one listing agent's creates and publishes so a plan limit holds under concurrency. */
    async lockAgent(agentId: number, trx: Trx) {
      await sql`select pg_advisory_xact_lock(${agentId})`.execute(trx)
    },

    /**
     * The row, locked until the transaction ends: an edit, a publish or a claim that fixes the schedule
     * decides on what is current, and a claim racing it waits and then sees the result.
     */
    lockRow(id: number, trx: Trx) {
      return trx.selectFrom('openHouse').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    },

    /**
     * The scheduler's team of a type that the listing agent belongs to too (among `teamIds`, the
     * scheduler's accepted teams): the one the scheduler leads first.
     */
    teamOfType(schedulerId: number, teamIds: readonly number[], listingId: number, teamType: string) {
      if (teamIds.length === 0) return Promise.resolve(undefined)
      return db
        .selectFrom('reTeam')
        .select('reTeam.id')
        .where('reTeam.id', 'in', [...teamIds])
        .where('reTeam.teamType', '=', teamType as never)
        .where('reTeam.reTeamActiveFlag', '=', true)
        .where((eb) =>
          eb.or([
            eb('reTeam.reTeamLeadId', '=', listingId),
            eb('reTeam.reCoTeamLeadId', '=', listingId),
            eb.exists(
              eb
                .selectFrom('reTeamMember')
                .select('reTeamMember.id')
                .whereRef('reTeamMember.reTeamId', '=', 'reTeam.id')
                .where('reTeamMember.reAgentId', '=', listingId)
                .where('reTeamMember.invitationStatus', '=', 'accepted'),
            ),
          ]),
        )
        .orderBy(sql`(re_team.re_team_lead_id = ${schedulerId}) desc`)
        .orderBy('reTeam.id')
        .executeTakeFirst()
    },
  }
}

export type OpenHouseRepo = ReturnType<typeof createOpenHouseRepo>
export type OpenHouseRow = NonNullable<Awaited<ReturnType<OpenHouseRepo['getById']>>>
/** An open house as a claim sees it (claimColumns). */
export type ClaimedRow = Pick<OpenHouseRow, (typeof claimColumns)[number]>
export type OpenHouseDetailsRow = NonNullable<Awaited<ReturnType<OpenHouseRepo['details']>>>
