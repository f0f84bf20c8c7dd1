import type { TeamType } from '@porchlight/shared'
import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, ReTeamTable } from '../../db/types.ts'

type TeamEb = ExpressionBuilder<Database, 'reTeam'>

/** The team's lead, its co-lead or one of its current members. */
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
        .where('reTeamMember.reAgentCurrentFlag', '=', true),
    ),
  ])
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

    isInsider(teamId: number, agentId: number) {
      return db
        .selectFrom('reTeam')
        .select('reTeam.id')
        .where('reTeam.id', '=', teamId)
        .where((eb) => insider(eb, agentId))
        .executeTakeFirst()
        .then(Boolean)
    },

    /** Teams the agent leads, co-leads or belongs to, by name. */
    listForAgent(agentId: number) {
      return db
        .selectFrom('reTeam')
        .selectAll()
        .where((eb) => insider(eb, agentId))
        .orderBy('reTeamName')
        .orderBy('id')
        .execute()
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
        ])
        .where('reTeamMember.reTeamId', '=', teamId)
        .where('reTeamMember.reAgentCurrentFlag', '=', true)
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
          j.onRef('reTeamMember.reTeamId', '=', 'reTeam.id').on('reTeamMember.reAgentCurrentFlag', '=', true),
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

    isMember(teamId: number, agentId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('reTeamMember')
        .select('id')
        .where('reTeamId', '=', teamId)
        .where('reAgentId', '=', agentId)
        .executeTakeFirst()
        .then(Boolean)
    },

    async countMembers(teamId: number, trx: Trx) {
      const row = await trx
        .selectFrom('reTeamMember')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reTeamId', '=', teamId)
        .where('reAgentCurrentFlag', '=', true)
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
