import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import { createMigrator } from '@porchlight/server/src/db/migrate.ts'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { testDatabaseName } from '../support/databases.ts'
import { migrationsDir } from '../support/global-setup.ts'
import { withDatabase } from '../support/services.ts'

// Existing roles when roles became granted (migration 202611290001, decision 028): a Team Lead or Admin
// Team Member role is kept only where the operator's verification stands behind it, directly or through
// a chain of kept Team Leads of the same firm; every other typed role becomes a request.

const BEFORE = '202611280001-key-outbox-jobs'
const GRANT = '202611290001-grant-firm-roles'
const name = testDatabaseName('roles')
let handle: DbHandle

async function admin(query: string) {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') })
  await client.connect()
  await client.query(query).finally(() => client.end())
}

beforeAll(async () => {
  await admin(`create database "${name}"`)
  handle = createPostgresDb(withDatabase(inject('pgAdminUrl'), name), 2)
})
afterAll(async () => {
  await handle?.close()
  await admin(`drop database if exists "${name}" with (force)`)
})

interface Old {
  role: string
  status: 'pending' | 'verified' | 'declined'
  /** Who verified it: 'operator', another agent's key, or nobody (never decided). */
  by?: string
  firm?: string
}

describe('migration 202611290001 on the roles agents typed before', () => {
  it('keeps the roles the operator stands behind, and turns every other typed role into a request', async () => {
    const migrator = createMigrator(handle.db, migrationsDir)
    const done = await migrator.migrateTo(BEFORE)
    expect(done.error).toBeUndefined()

    const agents: Record<string, Old> = {
      opLead: { role: 'Team Lead', status: 'verified', by: 'operator' },
      opAdmin: { role: 'Admin Team Member', status: 'verified', by: 'operator' },
      byOpLead: { role: 'Admin Team Member', status: 'verified', by: 'opLead' },
      chainLead: { role: 'Team Lead', status: 'verified', by: 'opLead' },
      byChainLead: { role: 'Admin Team Member', status: 'verified', by: 'chainLead' },
      // An Admin Team Member's approval vouches for membership, not for a role.
      byOpAdmin: { role: 'Team Lead', status: 'verified', by: 'opAdmin' },
      // The audit's self-made lead: verified by a kept lead as a plain agent, then typed Team Lead; it
      // cannot be told apart from a lead the real lead approved, except by what it approved since.
      bySelfMade: { role: 'Team Lead', status: 'verified', by: 'byOpAdmin' },
      pendingLead: { role: 'Team Lead', status: 'pending' },
      declinedAdmin: { role: 'Admin Team Member', status: 'declined', by: 'opLead' },
      otherFirm: { role: 'Team Lead', status: 'verified', by: 'opLead', firm: 'FIRM-OTHER' },
      plain: { role: 'Real Estate Agent', status: 'verified', by: 'opLead' },
    }
    const ids: Record<string, number> = {}
    for (const [key, a] of Object.entries(agents)) {
      const { rows: users } = await sql<{ id: number }>`
        insert into porchlight_user (porchlight_user_email_id, porchlight_user_pass, user_enabled)
        values (${`${key}@example.com`}, 'x', true) returning id`.execute(handle.db)
      const by = a.by && a.by !== 'operator' ? ids[a.by] : null
      const { rows } = await sql<{ id: number }>`
        insert into re_agent (porchlight_user_id, re_agent_first_name, re_agent_last_name, re_agent_email_id,
          re_agent_phone_country_code, re_agent_phone_number, re_agent_broker_firm_name,
          re_agent_broker_firm_license, re_agent_license_number, re_agent_role, firm_membership_status,
          firm_membership_decided_by_re_agent_id, firm_membership_decided_at)
        values (${users[0]?.id}, ${key}, 'Agent', ${`${key}@example.com`}, 'United States', '4045550100',
          'Peachtree Realty', ${a.firm ?? 'FIRM-1'}, 'GA-1', ${a.role}, ${a.status}, ${by ?? null},
          ${a.by ? sql`now() - interval '1 day'` : null})
        returning id`.execute(handle.db)
      ids[key] = Number(rows[0]?.id)
    }

    const up = await migrator.migrateTo(GRANT)
    expect(up.error).toBeUndefined()

    const { rows } = await sql<{ id: number; reAgentRole: string; requestedRole: string }>`
      select id, re_agent_role, requested_role from re_agent`.execute(handle.db)
    const held = Object.fromEntries(
      Object.entries(ids).map(([key, id]) => {
        const row = rows.find((r) => Number(r.id) === id)
        return [key, `${row?.reAgentRole} (asked ${row?.requestedRole})`]
      }),
    )
    expect(held).toEqual({
      opLead: 'Team Lead (asked Team Lead)',
      opAdmin: 'Admin Team Member (asked Admin Team Member)',
      byOpLead: 'Admin Team Member (asked Admin Team Member)',
      chainLead: 'Team Lead (asked Team Lead)',
      byChainLead: 'Admin Team Member (asked Admin Team Member)',
      byOpAdmin: 'Real Estate Agent (asked Team Lead)',
      bySelfMade: 'Real Estate Agent (asked Team Lead)',
      pendingLead: 'Real Estate Agent (asked Team Lead)',
      declinedAdmin: 'Real Estate Agent (asked Admin Team Member)',
      otherFirm: 'Real Estate Agent (asked Team Lead)',
      plain: 'Real Estate Agent (asked Real Estate Agent)',
    })

    // Every role kept or taken is on record: who stood behind it (the operator, or the kept lead).
    const { rows: grants } = await sql<{
      reAgentId: number
      reAgentRole: string
      previousRole: string
      grantedByReAgentId: number | null
      byOperator: boolean
      reason: string
    }>`select re_agent_id, re_agent_role, previous_role, granted_by_re_agent_id, by_operator, reason
       from re_agent_role_grant order by re_agent_id`.execute(handle.db)
    const record = (key: string) => {
      const g = grants.find((r) => Number(r.reAgentId) === ids[key])
      return (
        g && {
          ...g,
          reAgentId: key,
          grantedByReAgentId: g.grantedByReAgentId && Number(g.grantedByReAgentId),
        }
      )
    }
    expect(record('opLead')).toEqual({
      reAgentId: 'opLead',
      reAgentRole: 'Team Lead',
      previousRole: 'Team Lead',
      grantedByReAgentId: null,
      byOperator: true,
      reason: 'migrated',
    })
    expect(record('byOpLead')).toMatchObject({ grantedByReAgentId: ids.opLead, byOperator: false })
    expect(record('byOpAdmin')).toMatchObject({ reAgentRole: 'Real Estate Agent', previousRole: 'Team Lead' })
    expect(record('plain')).toBeUndefined()
    expect(grants).toHaveLength(10)

    // A new firm license now also takes a granted role.
    await sql`update re_agent set re_agent_broker_firm_license = 'FIRM-NEW' where id = ${ids.opLead}`.execute(
      handle.db,
    )
    const { rows: moved } = await sql<{ reAgentRole: string; firmMembershipStatus: string }>`
      select re_agent_role, firm_membership_status from re_agent where id = ${ids.opLead}`.execute(handle.db)
    expect(moved[0]).toEqual({ reAgentRole: 'Real Estate Agent', firmMembershipStatus: 'pending' })

    // And back down: the typed roles return.
    const down = await migrator.migrateTo(BEFORE)
    expect(down.error).toBeUndefined()
    const { rows: typed } = await sql<{ reAgentRole: string }>`
      select re_agent_role from re_agent where id = ${ids.byOpAdmin}`.execute(handle.db)
    expect(typed[0]?.reAgentRole).toBe('Team Lead')
  })
})
