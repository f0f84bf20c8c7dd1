// The one-statement sign-in writes only at a door none of whose agents has an integration, and asks
// `integrated_agent` (decision 063), a table that triggers keep from `agent_integrations` itself. Over
// generated sequences of the writes that can change the function's answer (endpoints, their team and
// their switch, Follow Up Boss keys, teams, their leads and their switch, memberships and their answers,
// an agent's verification), the table must name exactly the agents the function answers a row for,
// after every write.

import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makeAgent } from '../support/factories.ts'

let t: TestDatabase
let pool: pg.Pool
const agents: number[] = []
beforeAll(async () => {
  t = await createTestDatabase()
  pool = new pg.Pool({ connectionString: t.url, max: 2 })
  for (let i = 0; i < 3; i++) agents.push((await makeAgent(t.handle.db)).agent.id)
})
afterAll(async () => {
  await pool?.end()
  await t?.drop()
})

const agent = fc.integer({ min: 0, max: 2 })
const slot = fc.integer({ min: 0, max: 1 })
const TEAM_TYPES = ['Real Estate Team', 'Partnered Team', 'Real Estate Group', 'Market Center'] as const

/** One write; `teams` and `endpoints` are the ids made so far in this run, picked by index. */
const write = fc.oneof(
  fc.record({ kind: fc.constant('endpoint' as const), agent, team: fc.option(slot), disabled: fc.boolean() }),
  fc.record({ kind: fc.constant('switchEndpoint' as const), endpoint: slot, disabled: fc.boolean() }),
  fc.record({ kind: fc.constant('moveEndpoint' as const), endpoint: slot, team: fc.option(slot) }),
  fc.record({ kind: fc.constant('dropEndpoint' as const), endpoint: slot }),
  fc.record({ kind: fc.constant('fub' as const), agent }),
  fc.record({ kind: fc.constant('dropFub' as const), agent }),
  fc.record({
    kind: fc.constant('team' as const),
    lead: agent,
    coLead: fc.option(agent),
    type: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({ kind: fc.constant('switchTeam' as const), team: slot, active: fc.boolean() }),
  fc.record({ kind: fc.constant('coLead' as const), team: slot, coLead: fc.option(agent) }),
  fc.record({ kind: fc.constant('dropTeam' as const), team: slot }),
  fc.record({
    kind: fc.constant('member' as const),
    team: slot,
    agent,
    status: fc.constantFrom('invited', 'accepted', 'declined'),
    current: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('answer' as const),
    team: slot,
    agent,
    status: fc.constantFrom('invited', 'accepted', 'declined'),
    current: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('dropMember' as const), team: slot, agent }),
  fc.record({
    kind: fc.constant('verify' as const),
    agent,
    status: fc.constantFrom('pending', 'verified', 'declined'),
  }),
)
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never

const team: Write = { kind: 'team', lead: 0, coLead: null, type: 0 }
const teamEndpoint: Write = { kind: 'endpoint', agent: 0, team: 0, disabled: false }
const member: Write = { kind: 'member', team: 0, agent: 2, status: 'accepted', current: true }

async function apply(w: Write, teams: number[], endpoints: number[]) {
  const a = (i: number) => agents[i]
  const team = (i: number | null) => (i === null ? null : (teams[i % Math.max(1, teams.length)] ?? null))
  const endpoint = (i: number) => endpoints[i % Math.max(1, endpoints.length)] ?? null
  switch (w.kind) {
    case 'endpoint': {
      const { rows } = await pool.query(
        `insert into webhook_endpoint (re_agent_id, url, events, secret, team_id, disabled_at)
         values ($1, 'https://example.com/hook', '{prospect.created}', 'secret', $2, case when $3 then now() end)
         returning id`,
        [a(w.agent), team(w.team), w.disabled],
      )
      endpoints.push(rows[0].id)
      return
    }
    case 'switchEndpoint':
      return pool.query(
        'update webhook_endpoint set disabled_at = case when $2 then now() end where id = $1',
        [endpoint(w.endpoint), w.disabled],
      )
    case 'moveEndpoint':
      return pool.query('update webhook_endpoint set team_id = $2 where id = $1', [
        endpoint(w.endpoint),
        team(w.team),
      ])
    case 'dropEndpoint': {
      const id = endpoint(w.endpoint)
      if (id !== null) endpoints.splice(endpoints.indexOf(id), 1)
      return pool.query('delete from webhook_endpoint where id = $1', [id])
    }
    case 'fub':
      return pool.query(
        `insert into fub_connector (re_agent_id, api_key) values ($1, 'fub-key-123') on conflict do nothing`,
        [a(w.agent)],
      )
    case 'dropFub':
      return pool.query('delete from fub_connector where re_agent_id = $1', [a(w.agent)])
    case 'team': {
      const coLead = w.coLead === null || w.coLead === w.lead ? null : a(w.coLead)
      const { rows } = await pool.query(
        `insert into re_team (re_team_name, team_type, re_team_lead_id, re_co_team_lead_id, created_by_re_agent_id)
         values ('Team', $1, $2, $3, $2) on conflict do nothing returning id`,
        [TEAM_TYPES[w.type], a(w.lead), coLead],
      )
      if (rows[0]) teams.push(rows[0].id)
      return
    }
    case 'switchTeam':
      return pool.query('update re_team set re_team_active_flag = $2 where id = $1', [team(w.team), w.active])
    case 'coLead':
      return pool.query(
        'update re_team set re_co_team_lead_id = $2 where id = $1 and re_team_lead_id is distinct from $2',
        [team(w.team), w.coLead === null ? null : a(w.coLead)],
      )
    case 'dropTeam': {
      const id = team(w.team)
      if (id !== null) teams.splice(teams.indexOf(id), 1)
      return pool.query('delete from re_team where id = $1', [id])
    }
    case 'member':
      return pool.query(
        `insert into re_team_member (re_team_id, re_agent_id, invitation_status, re_agent_current_flag)
         select $1::bigint, $2::bigint, $3::text, $4::boolean where $1::bigint is not null on conflict do nothing`,
        [team(w.team), a(w.agent), w.status, w.current],
      )
    case 'answer':
      return pool.query(
        `update re_team_member set invitation_status = $3, re_agent_current_flag = $4
         where re_team_id = $1 and re_agent_id = $2`,
        [team(w.team), a(w.agent), w.status, w.current],
      )
    case 'dropMember':
      return pool.query('delete from re_team_member where re_team_id = $1 and re_agent_id = $2', [
        team(w.team),
        a(w.agent),
      ])
    case 'verify':
      return pool.query('update re_agent set firm_membership_status = $2 where id = $1', [
        a(w.agent),
        w.status,
      ])
  }
}

/** The kept agents among ours, and those the function answers a row for. */
async function keptAndAsked() {
  const { rows } = await pool.query(
    `select
       array(select re_agent_id from integrated_agent where re_agent_id = any($1) order by 1)::int[] as kept,
       array(select distinct re_agent_id from agent_integrations($1) order by 1)::int[] as asked`,
    [agents],
  )
  return rows[0] as { kept: number[]; asked: number[] }
}

async function startOver() {
  await pool.query('delete from webhook_endpoint where re_agent_id = any($1)', [agents])
  await pool.query('delete from fub_connector where re_agent_id = any($1)', [agents])
  await pool.query('delete from re_team_member where re_agent_id = any($1)', [agents])
  await pool.query('delete from re_team where re_team_lead_id = any($1)', [agents])
  await pool.query(`update re_agent set firm_membership_status = 'verified' where id = any($1)`, [agents])
}

describe('the agents kept as having an integration', () => {
  it('are those agent_integrations answers for, after every write that can change it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 24 }), async (writes) => {
        await startOver()
        const teams: number[] = []
        const endpoints: number[] = []
        for (const w of writes) {
          // A write the schema refuses (a lead's second team of a type, a co-lead who leads) changes nothing.
          await apply(w, teams, endpoints).catch((err) => {
            if (!String(err.code).startsWith('23')) throw err
          })
          const { kept, asked } = await keptAndAsked()
          expect({ after: w, kept }).toEqual({ after: w, kept: asked })
        }
      }),
      {
        numRuns: 150,
        // Beside the generated ones: a write made after the team's endpoint, for each kind of write.
        examples: [
          [[team, teamEndpoint, { kind: 'switchTeam', team: 0, active: false }]],
          [[team, teamEndpoint, { kind: 'coLead', team: 0, coLead: 1 }]],
          [[team, teamEndpoint, { kind: 'member', team: 0, agent: 2, status: 'accepted', current: true }]],
          [
            [
              team,
              teamEndpoint,
              member,
              { kind: 'answer', team: 0, agent: 2, status: 'declined', current: true },
            ],
          ],
          [[team, teamEndpoint, member, { kind: 'verify', agent: 2, status: 'pending' }]],
          [[team, teamEndpoint, member, { kind: 'moveEndpoint', endpoint: 0, team: null }]],
        ],
      },
    )
  })
})
