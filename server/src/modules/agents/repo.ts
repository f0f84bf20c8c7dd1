import { type Insertable, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import type { Trx } from '../../db/transaction.ts'
import type { ReAgentTable } from '../../db/types.ts'

/** The firm standing a decision or grant met, read and locked by its own statement. */
export interface Standing {
  /** The target's membership status and role, null when it is not an agent of that firm. */
  standingStatus: string | null
  previousRole: string | null
  /** The deciding agent's role while it is a verified member of the firm; null otherwise. */
  byRole: string | null
  /** Verified Team Leads of the firm other than the target. */
  otherLeads: number
  licensed: boolean | null
}

export type StandingResult = Standing & { agent: AgentRow | undefined }

/** Who decides: a member of the firm with one of `roles`, or the operator (no agent). */
export type Decider = { agentId: number; roles: readonly string[] } | { operator: true }

/**
 * Locks, in id order (so two decisions in one firm never deadlock), the target, the decider and the
 * firm's verified Team Leads, and reads what the decision depends on. Locked rows are read as they are
 * after any decision that committed meanwhile: two decisions at once are taken one after the other.
 */
function standingOf(targetId: number, license: string, byId: number | null) {
  return sql`
    locked as (
      select id, re_agent_role, firm_membership_status, re_agent_license_number from re_agent
      where re_agent_broker_firm_license = ${license}
        and (id = ${targetId} or id = ${byId}::bigint
             or (re_agent_role = 'Team Lead' and firm_membership_status = 'verified'))
      order by id
      for update
    ), facts as (
      select
        (array_agg(firm_membership_status) filter (where id = ${targetId}))[1] as standing_status,
        (array_agg(re_agent_role) filter (where id = ${targetId}))[1] as previous_role,
        bool_or(id = ${targetId} and coalesce(re_agent_license_number, '') <> '') as licensed,
        (array_agg(re_agent_role) filter (where id = ${byId}::bigint and firm_membership_status = 'verified'))[1]
          as by_role,
        (count(*) filter (where id <> ${targetId} and re_agent_role = 'Team Lead'
                          and firm_membership_status = 'verified'))::int as other_leads
      from locked
    )`
}

function split(row: Record<string, unknown> | undefined): StandingResult {
  if (!row) throw new Error('a firm decision answered no row')
  const { standingStatus, previousRole, byRole, otherLeads, licensed, ...agent } = row
  return {
    standingStatus: standingStatus as string | null,
    previousRole: previousRole as string | null,
    byRole: byRole as string | null,
    otherLeads: Number(otherLeads),
    licensed: licensed as boolean | null,
    agent: agent.id === null || agent.id === undefined ? undefined : (agent as unknown as AgentRow),
  }
}

export function createAgentRepo(db: Db) {
  return {
    findByUserId(userId: number, trx: Db | Trx = db) {
      return trx.selectFrom('reAgent').selectAll().where('porchlightUserId', '=', userId).executeTakeFirst()
    },

    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('reAgent').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /**
     * Records the agent's request to the operator to verify its firm membership: one conditional write,
     * so that of simultaneous requests, or of two within a day, one only goes through.
     */
    askFirmVerification(id: number, trx: Db | Trx = db) {
      return trx
        .updateTable('reAgent')
        .set({ firmVerificationRequestedAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('firmMembershipStatus', '<>', 'verified')
        .where((eb) =>
          eb.or([
            eb('firmVerificationRequestedAt', 'is', null),
            eb('firmVerificationRequestedAt', '<=', sql<Date>`now() - interval '1 day'`),
          ]),
        )
        .returningAll()
        .executeTakeFirst()
    },

    /** The agents not verified who asked the operator, oldest request first. */
    firmVerificationRequests() {
      return db
        .selectFrom('reAgent')
        .select([
          'id',
          'reAgentFirstName',
          'reAgentLastName',
          'reAgentEmailId',
          'reAgentBrokerFirmName',
          'reAgentBrokerFirmLicense',
          'firmMembershipStatus',
          'firmVerificationRequestedAt',
        ])
        .where('firmVerificationRequestedAt', 'is not', null)
        .where('firmMembershipStatus', '<>', 'verified')
        .orderBy('firmVerificationRequestedAt')
        .orderBy('id')
        .limit(500)
        .execute()
    },

    /** The firm's verified members; with `requests`, also who asks to join (pending) or was declined. */
    listByFirmLicense(license: string, requests: boolean) {
      let q = db.selectFrom('reAgent').selectAll().where('reAgentBrokerFirmLicense', '=', license)
      if (!requests) q = q.where('firmMembershipStatus', '=', 'verified')
      return q
        .orderBy(sql`firm_membership_status = 'pending'`, 'desc')
        .orderBy('reAgentLastName')
        .orderBy('reAgentFirstName')
        .execute()
    },

    emailTaken(email: string, exceptAgentId?: number) {
      let q = db
        .selectFrom('reAgent')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['reAgentEmailId']), '=', email.toLowerCase()))
      if (exceptAgentId) q = q.where('id', '!=', exceptAgentId)
      return q.executeTakeFirst().then(Boolean)
    },

    create(values: Insertable<ReAgentTable>) {
      return db.insertInto('reAgent').values(values).returningAll().executeTakeFirstOrThrow()
    },

    update(id: number, values: Updateable<ReAgentTable>) {
      return db
        .updateTable('reAgent')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /**
     * A firm membership decision as one conditional write: only while the agent still claims that firm
     * license and its status is one of `from`, while the decider is still a verified member holding one
     * of its roles, and never declining the firm's last verified Team Lead (except by the operator).
     * Declining a member who holds a granted role takes the role too, recorded with who and when.
     * Answers what it met; `agent` only when it decided.
     */
    async decideFirmMembership(
      id: number,
      license: string,
      from: readonly string[],
      status: 'verified' | 'declined',
      by: Decider,
      trx: Db | Trx = db,
    ): Promise<StandingResult> {
      const byId = 'agentId' in by ? by.agentId : null
      const operator = !('agentId' in by)
      const roles = 'agentId' in by ? [...by.roles] : []
      const { rows } = await sql<Record<string, unknown>>`
        with ${standingOf(id, license, byId)},
        upd as (
          update re_agent a set
            firm_membership_status = ${status}::text,
            firm_membership_decided_by_re_agent_id = ${byId}::bigint,
            firm_membership_decided_at = now(),
            updated_date = now(),
            re_agent_role = case when ${status}::text = 'declined' then 'Real Estate Agent' else a.re_agent_role end
          from facts f
          where a.id = ${id} and a.re_agent_broker_firm_license = ${license}
            and f.standing_status = any(${[...from]}::text[])
            and (${operator}::boolean or f.by_role = any(${roles}::text[]))
            and (${status}::text <> 'declined' or f.standing_status <> 'verified'
                 or f.previous_role <> 'Team Lead' or ${operator}::boolean or f.other_leads > 0)
          returning a.*
        ), recorded as (
          insert into re_agent_role_grant
            (re_agent_id, re_agent_role, previous_role, granted_by_re_agent_id, by_operator, reason)
          select u.id, u.re_agent_role, f.previous_role, ${byId}::bigint, ${operator}::boolean, 'declined'
          from upd u, facts f where u.re_agent_role <> f.previous_role
        )
        select f.standing_status, f.previous_role, f.by_role, f.other_leads, f.licensed, u.*
        from facts f left join upd u on true`.execute(trx)
      return split(rows[0])
    },

    /**
     * A role granted (Real Estate Agent: revoked) as one conditional write: only to a verified member of
     * the firm that does not hold it yet, while the decider is still a verified Team Lead of the firm,
     * Team Lead only to a licensed agent, and never taking Team Lead from the firm's last verified one
     * (except by the operator). Recorded with who and when.
     */
    async grantFirmRole(
      id: number,
      license: string,
      role: string,
      by: Decider,
      trx: Db | Trx = db,
    ): Promise<StandingResult> {
      const byId = 'agentId' in by ? by.agentId : null
      const operator = !('agentId' in by)
      const roles = 'agentId' in by ? [...by.roles] : []
      const { rows } = await sql<Record<string, unknown>>`
        with ${standingOf(id, license, byId)},
        upd as (
          update re_agent a set re_agent_role = ${role}::text, updated_date = now()
          from facts f
          where a.id = ${id} and a.re_agent_broker_firm_license = ${license}
            and f.standing_status = 'verified' and f.previous_role <> ${role}::text
            and (${operator}::boolean or f.by_role = any(${roles}::text[]))
            and (${role}::text <> 'Team Lead' or f.licensed)
            and (f.previous_role <> 'Team Lead' or ${operator}::boolean or f.other_leads > 0)
          returning a.*
        ), recorded as (
          insert into re_agent_role_grant
            (re_agent_id, re_agent_role, previous_role, granted_by_re_agent_id, by_operator, reason)
          select u.id, u.re_agent_role, f.previous_role, ${byId}::bigint, ${operator}::boolean, 'granted'
          from upd u, facts f
        )
        select f.standing_status, f.previous_role, f.by_role, f.other_leads, f.licensed, u.*
        from facts f left join upd u on true`.execute(trx)
      return split(rows[0])
    },

    /** When each of the agents' role held last changed, and who changed it (null: the operator). */
    lastRoleChanges(ids: readonly number[]) {
      if (ids.length === 0) return Promise.resolve([])
      return db
        .selectFrom('reAgentRoleGrant as g')
        .leftJoin('reAgent as by', 'by.id', 'g.grantedByReAgentId')
        .distinctOn('g.reAgentId')
        .select([
          'g.reAgentId',
          'g.createdDate',
          'g.byOperator',
          'g.reason',
          'by.reAgentFirstName as byFirstName',
          'by.reAgentLastName as byLastName',
        ])
        .where('g.reAgentId', 'in', [...ids])
        .orderBy('g.reAgentId')
        .orderBy('g.id', 'desc')
        .execute()
    },

    findByFirmAndEmail(license: string, email: string) {
      return db
        .selectFrom('reAgent')
        .selectAll()
        .where('reAgentBrokerFirmLicense', '=', license)
        .where((eb) => eb(eb.fn('lower', ['reAgentEmailId']), '=', email.toLowerCase()))
        .executeTakeFirst()
    },
  }
}

export type AgentRepo = ReturnType<typeof createAgentRepo>
export type { AgentRow } from '../../db/rows.ts'
