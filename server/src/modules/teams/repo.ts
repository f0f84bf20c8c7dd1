import type { TeamType } from '@porchlight/shared'
import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, ReTeamTable } from '../../db/types.ts'

type TeamEb = ExpressionBuilder<Database, 'reTeam'>

/** The team's lead, its co-lead or one of its current members who accepted to join. */
function insider(eb: TeamEb, agentId: number) {
  return eb.or([
    eb('reTeam.reTeamLeadId', '=', agentId),
    eb('reTeam.reCoTeamLeadId', '=', agentId),
    eb.exists(
      eb
        .selectFrom('reTeamMember')
        .select('reTeamMember.id')
        .whereRef('reTeamMember.reTeamId', '=', 'reTeam.id')
        .where('reTeamMember.reAgentId', '=', agentId)
        .where('reTeamMember.reAgentCurrentFlag', '=', true)
        .where('reTeamMember.invitationStatus', '=', 'accepted'),
    ),
  ])
}

/** Teams the agent is invited to and has not answered yet. */
function invited(eb: TeamEb, agentId: number) {
  return eb.exists(
    eb
      .selectFrom('reTeamMember')
      .select('reTeamMember.id')
      .whereRef('reTeamMember.reTeamId', '=', 'reTeam.id')
      .where('reTeamMember.reAgentId', '=', agentId)
      .where('reTeamMember.invitationStatus', '=', 'invited'),
  )
}

const leadColumns = [
  'id',
  'porchlightUserId',
  'reAgentFirstName',
  'reAgentLastName',
  'reAgentEmailId',
  'reAgentPhoneNumber',
  'reAgentRole',
  'reAgentBrokerFirmName',
  'reAgentBrokerFirmLicense',
] as const

export function createTeamRepo(db: Db) {
  return {
    /** The teams these agents lead, co-lead or belong to (accepted), each once. */
    async teamIdsOf(agentIds: number[]): Promise<number[]> {
      if (agentIds.length === 0) return []
      const rows = await db
        .selectFrom('reTeam')
        .leftJoin('reTeamMember', (j) =>
          j
            .onRef('reTeamMember.reTeamId', '=', 'reTeam.id')
            .on('reTeamMember.invitationStatus', '=', 'accepted'),
        )
        .select('reTeam.id')
        .where((eb) =>
          eb.or([
            eb('reTeam.reTeamLeadId', 'in', agentIds),
            eb('reTeam.reCoTeamLeadId', 'in', agentIds),
            eb('reTeamMember.reAgentId', 'in', agentIds),
          ]),
        )
        .execute()
      return [...new Set(rows.map((r) => r.id))]
    },

    /** Serialises one agent's team creates so the plan limit holds under concurrency. */
    async lockAgent(agentId: number, trx: Trx) {
      await sql`select pg_advisory_xact_lock(${agentId})`.execute(trx)
    },

    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('reTeam').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** Locks the team row: member adds to one team queue behind each other (member limit). */
    lockTeam(id: number, trx: Trx) {
      return trx.selectFrom('reTeam').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    },

    ofLeadAndType(leadId: number, teamType: TeamType, trx: Db | Trx = db) {
      return trx
        .selectFrom('reTeam')
        .select('id')
        .where('reTeamLeadId', '=', leadId)
        .where('teamType', '=', teamType)
        .executeTakeFirst()
    },

    /** Teams the agent created: what the plan's team limit counts (as the plan utilisation does). */
    async countCreatedBy(agentId: number, trx: Trx) {
      const row = await trx
        .selectFrom('reTeam')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('createdByReAgentId', '=', agentId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    create(values: Insertable<ReTeamTable>, trx: Trx) {
      return trx.insertInto('reTeam').values(values).returningAll().executeTakeFirstOrThrow()
    },

    update(id: number, values: Updateable<ReTeamTable>, trx: Trx) {
      return trx
        .updateTable('reTeam')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** The agent's own membership of the team: its invitation status, if it was ever invited. */
    async invitationOf(teamId: number, agentId: number, trx: Db | Trx = db) {
      const row = await trx
        .selectFrom('reTeamMember')
        .select('invitationStatus')
        .where('reTeamId', '=', teamId)
        .where('reAgentId', '=', agentId)
        .executeTakeFirst()
      return row?.invitationStatus ?? null
    },

    /** Teams the agent leads, co-leads, belongs to or is invited to, by name, with its invitation. */
    listForAgent(agentId: number) {
      return db
        .selectFrom('reTeam')
        .selectAll('reTeam')
        .select((eb) =>
          eb
            .selectFrom('reTeamMember')
            .select('reTeamMember.invitationStatus')
            .whereRef('reTeamMember.reTeamId', '=', 'reTeam.id')
            .where('reTeamMember.reAgentId', '=', agentId)
            .as('invitationStatus'),
        )
        .where((eb) => eb.or([insider(eb, agentId), invited(eb, agentId)]))
        .orderBy('reTeamName')
        .orderBy('id')
        .execute()
    },

    /** Answers an invitation: from `from` statuses only, in one statement. */
    respond(
      teamId: number,
      agentId: number,
      from: string[],
      to: 'accepted' | 'declined',
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('reTeamMember')
        .set({ invitationStatus: to, respondedAt: new Date(), updatedDate: new Date() })
        .where('reTeamId', '=', teamId)
        .where('reAgentId', '=', agentId)
        .where('invitationStatus', 'in', from as never)
        .returningAll()
        .executeTakeFirst()
    },

    /** Invites again an agent who declined earlier. */
    reinvite(teamId: number, agentId: number, addedBy: number, trx: Trx) {
      return trx
        .updateTable('reTeamMember')
        .set({
          invitationStatus: 'invited',
          respondedAt: null,
          addedByReAgentId: addedBy,
          updatedDate: new Date(),
        })
        .where('reTeamId', '=', teamId)
        .where('reAgentId', '=', agentId)
        .where('invitationStatus', '=', 'declined')
        .returningAll()
        .executeTakeFirst()
    },

    /** The agent's team of a type: the one it leads first, then an active one. */
    ofAgentAndType(agentId: number, teamType: TeamType) {
      return db
        .selectFrom('reTeam')
        .select(['reTeam.id', 'reTeam.reTeamName'])
        .where('reTeam.teamType', '=', teamType)
        .where((eb) => insider(eb, agentId))
        .orderBy(sql`(re_team.re_team_lead_id = ${agentId}) desc`)
        .orderBy('reTeam.reTeamActiveFlag', 'desc')
        .orderBy('reTeam.id')
        .executeTakeFirst()
    },

    /** Teams the agent leads or co-leads, by name. */
    ledBy(agentId: number) {
      return db
        .selectFrom('reTeam')
        .select(['id', 'reTeamName'])
        .where((eb) => eb.or([eb('reTeamLeadId', '=', agentId), eb('reCoTeamLeadId', '=', agentId)]))
        .orderBy('reTeamName')
        .orderBy('id')
        .execute()
    },

    leadDetails(agentId: number) {
      return db.selectFrom('reAgent').select(leadColumns).where('id', '=', agentId).executeTakeFirst()
    },

    /** Current members with their cards, by name. */
    members(teamId: number) {
      return db
        .selectFrom('reTeamMember')
        .innerJoin('reAgent', 'reAgent.id', 'reTeamMember.reAgentId')
        .select([
          'reTeamMember.id as reTeamMemberId',
          'reAgent.id',
          'reAgent.reAgentFirstName',
          'reAgent.reAgentLastName',
          'reAgent.reAgentPhoneNumber',
          'reAgent.reAgentEmailId',
          'reTeamMember.invitationStatus',
        ])
        .where('reTeamMember.reTeamId', '=', teamId)
        .where('reTeamMember.reAgentCurrentFlag', '=', true)
        .where('reTeamMember.invitationStatus', '!=', 'declined')
        .orderBy('reAgent.reAgentLastName')
        .orderBy('reAgent.reAgentFirstName')
        .orderBy('reTeamMember.id')
        .execute()
    },

    /** Everyone of the team for its statistics: lead, co-lead, then members by name; each once. */
    async people(teamId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('reTeam')
        .leftJoin('reTeamMember', (j) =>
          j
            .onRef('reTeamMember.reTeamId', '=', 'reTeam.id')
            .on('reTeamMember.reAgentCurrentFlag', '=', true)
            .on('reTeamMember.invitationStatus', '=', 'accepted'),
        )
        .leftJoin('reAgent', 'reAgent.id', 'reTeamMember.reAgentId')
        .select(['reTeam.reTeamLeadId', 'reTeam.reCoTeamLeadId', 'reTeamMember.reAgentId'])
        .where('reTeam.id', '=', teamId)
        .orderBy('reAgent.reAgentLastName')
        .orderBy('reAgent.reAgentFirstName')
        .orderBy('reTeamMember.id')
        .execute()
      const first = rows[0]
      if (!first) return []
      const ids = [first.reTeamLeadId, first.reCoTeamLeadId, ...rows.map((r) => r.reAgentId)]
      return [...new Set(ids.filter((id): id is number => id !== null))]
    },

    memberById(id: number) {
      return db.selectFrom('reTeamMember').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** Invited or accepted (a declined invitation may be sent again). */
    isMember(teamId: number, agentId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('reTeamMember')
        .select('id')
        .where('reTeamId', '=', teamId)
        .where('reAgentId', '=', agentId)
        .where('invitationStatus', '!=', 'declined')
        .executeTakeFirst()
        .then(Boolean)
    },

    async countMembers(teamId: number, trx: Trx) {
      const row = await trx
        .selectFrom('reTeamMember')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reTeamId', '=', teamId)
        .where('reAgentCurrentFlag', '=', true)
        .where('invitationStatus', '!=', 'declined')
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    addMember(teamId: number, agentId: number, addedBy: number, trx: Trx) {
      return trx
        .insertInto('reTeamMember')
        .values({ reTeamId: teamId, reAgentId: agentId, addedByReAgentId: addedBy })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    removeMember(id: number, trx: Trx) {
      return trx.deleteFrom('reTeamMember').where('id', '=', id).returningAll().executeTakeFirst()
    },
  }
}

export type TeamRepo = ReturnType<typeof createTeamRepo>
export type TeamRow = NonNullable<Awaited<ReturnType<TeamRepo['getById']>>>
export type TeamMemberRow = NonNullable<Awaited<ReturnType<TeamRepo['memberById']>>>
export type LeadRow = NonNullable<Awaited<ReturnType<TeamRepo['leadDetails']>>>
