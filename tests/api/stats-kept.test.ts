import { randomBytes, randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { acceptTeam, makePlannedAgent } from '../support/factories.ts'
import { prospectOfVisit, publish, scheduleOpenHouse } from '../support/open-houses.ts'

// The dashboard's figures are kept by triggers and folded in batches (migrations 202611261200 and
// 202612010090, decisions 014 and 049). Whatever history
// the API makes, they must equal a recount from the rows with the SQL the statistics were read with
// before they were kept: that SQL stays here as the oracle.

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
type Figures = [listed: number, hosted: number, canceled: number, visitors: number, withoutRealtor: number]

let t: TestApp
let pool: pg.Pool
const firm = `FIRM-${randomBytes(4).toString('hex')}`
let lead: Agent
let ann: Agent
let bob: Agent
let cy: Agent
let outsider: Agent
let teamId: number
/** The team's people as its statistics cover them: lead, then members by last name. */
let people: Agent[] = []

/** The five figures counted from the rows, for open houses `listed` / `hosted` by the ids (as one group). */
async function recount(ids: number[]): Promise<Figures> {
  const listed = 'oh.listing_re_agent_id = any($1::bigint[])'
  const hosted = 'oh.hosting_re_agent_id = any($1::bigint[])'
  const attendees = `open_house_attendee att
    join open_house oh on oh.id = att.open_house_id
    join prospect p on p.id = att.prospect_id`
  const { rows } = await pool.query(
    `select
      (select count(*) from open_house oh where (${listed})) as a,
      (select count(*) from open_house oh where (${hosted}) and not oh.open_house_canceled_flag) as b,
      (select count(*) from open_house oh where (${listed}) and oh.open_house_canceled_flag) as c,
      (select count(distinct att.prospect_id) from ${attendees} where (${listed}) or (${hosted})) as d,
      (select count(distinct att.prospect_id) from ${attendees}
        where ((${listed}) or (${hosted})) and not p.working_with_re_agent_flag) as e`,
    [ids],
  )
  const r = rows[0]
  return [r.a, r.b, r.c, r.d, r.e].map(Number) as Figures
}

const figures = (s: Record<string, number>): Figures => [
  s.totalListedOpenHouses ?? -1,
  s.totalHostedOpenHouses ?? -1,
  s.totalCanceleddOpenHouses ?? -1,
  s.totalVisitedProspects ?? -1,
  s.totalVisitedProspectsWithoutRealtor ?? -1,
]

async function ok<T extends { status: number; body: unknown }>(res: Promise<T>) {
  const answer = await res
  if (answer.status >= 300) throw new Error(JSON.stringify(answer.body))
  return answer
}

/** What the lead's dashboard and the team summary show equals the recount, for everyone in it. */
async function expectNoDrift() {
  const dashboard = await ok(
    t.call('GET', `/openhousemgmt/getDashboardStatistics/${lead.agent.id}`, { token: lead.token }),
  )
  expect(figures(dashboard.body.data.overall)).toEqual(await recount([lead.agent.id]))
  const members = dashboard.body.data.teamSummaries[0].members as Array<Record<string, number>>
  expect(members.map((m) => m.reAgentId)).toEqual(people.map((p) => p.agent.id))
  for (const [i, person] of people.entries()) {
    expect(figures(members[i] ?? {})).toEqual(await recount([person.agent.id]))
  }
  const team = await ok(t.call('GET', `/reteammgmt/getRETeamSummary/${teamId}`, { token: lead.token }))
  expect(figures(team.body.data)).toEqual(await recount(people.map((p) => p.agent.id)))
  const other = await ok(
    t.call('GET', `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${outsider.agent.id}`, {
      token: outsider.token,
    }),
  )
  expect(figures(other.body.data)).toEqual(await recount([outsider.agent.id]))
}

const guest = (openHouseId: number, overrides: Record<string, unknown> = {}) => ({
  prospectFirstName: 'Gale',
  prospectLastName: 'Guest',
  prospectEmailId: `guest-${randomUUID()}@example.com`,
  prospectPhoneNumber: '404 555 0100',
  openHouseId,
  clientRequestId: randomUUID(),
  ...overrides,
})
const signIn = (openHouseId: number, overrides: Record<string, unknown> = {}) =>
  ok(t.call('POST', '/public/saveProspect', { body: guest(openHouseId, overrides) }))

const claim = (oh: { id: number }, who: Agent) =>
  ok(t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${who.agent.id}`, { token: who.token }))
const withdraw = (oh: { id: number }, who: Agent) =>
  ok(
    t.call('DELETE', `/openhousemgmt/withdrawToHostOpenHouse/${oh.id}/${who.agent.id}`, { token: who.token }),
  )
const cancel = (oh: { id: number }, who: Agent) =>
  ok(
    t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: who.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: 'true' },
    }),
  )
/** An open house of `listing`, offered to all and claimed by `host`. */
async function hostedBy(listing: Agent, host: Agent) {
  const oh = await scheduleOpenHouse(t, listing)
  await ok(publish(t, listing, oh.id))
  await claim(oh, host)
  return oh
}

const prospectBody = (email: string, workingWithREAgentFlag: 'true' | 'false') => ({
  prospectFirstName: 'Riley',
  prospectLastName: 'Stone',
  prospectEmailId: email,
  prospectPhoneNumber: '404 555 0177',
  workingWithREAgentFlag,
})

beforeAll(async () => {
  t = await buildTestApp({
    // Crowds of guests from one address: the per-address limit would turn them away.
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  pool = new pg.Pool({ connectionString: t.database.url, max: 2 })
  lead = await makePlannedAgent(
    t.db,
    { role: 'Team Lead', brokerFirmLicense: firm, firstName: 'Lee', lastName: 'Lead' },
    'Team',
  )
  ann = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ann', lastName: 'Adams' })
  bob = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Bob', lastName: 'Brown' })
  cy = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Cy', lastName: 'Cole' })
  outsider = await makePlannedAgent(t.db, { brokerFirmLicense: `${firm}-X` })
  const team = await ok(
    t.call('POST', '/reteammgmt/saveRETeam', {
      token: lead.token,
      body: { reTeamName: 'Kept', teamType: 'Real Estate Team' },
    }),
  )
  teamId = team.body.data.id
  for (const member of [ann, bob, cy]) {
    await ok(
      t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: teamId, reAgentId: member.agent.id },
      }),
    )
    await acceptTeam(t, member, teamId)
  }
  people = [lead, ann, bob, cy]
})
afterAll(async () => {
  await pool?.end()
  await t?.close()
})

describe('kept dashboard statistics', () => {
  it('start at zero and match the recount for agents with no history', async () => {
    await expectNoDrift()
  })

  it('follow scheduling, publishing, claims, withdrawals and cancellations', async () => {
    await scheduleOpenHouse(t, ann, { publishLevel: 'Hosting Myself' })
    const offered = await scheduleOpenHouse(t, ann)
    await ok(publish(t, ann, offered.id))
    await expectNoDrift()
    await claim(offered, bob)
    await expectNoDrift()
    await withdraw(offered, bob)
    await claim(offered, cy)
    await expectNoDrift()
    const shared = await hostedBy(ann, bob)
    await cancel(shared, ann)
    const own = await scheduleOpenHouse(t, cy, { publishLevel: 'Hosting Myself' })
    await cancel(own, cy)
    await scheduleOpenHouse(t, outsider, { publishLevel: 'Hosting Myself' })
    await expectNoDrift()
  })

  it('count each guest once per agent and per team, with and without a realtor', async () => {
    const annOwn = await scheduleOpenHouse(t, ann, { publishLevel: 'Hosting Myself' })
    const annByBob = await hostedBy(ann, bob)
    const leadByAnn = await scheduleOpenHouse(t, lead, { publishLevel: 'Real Estate Team' })
    await ok(publish(t, lead, leadByAnn.id, 'Real Estate Team'))
    await claim(leadByAnn, ann)
    const outside = await scheduleOpenHouse(t, outsider, { publishLevel: 'Hosting Myself' })

    const email = `returning-${randomUUID()}@example.com`
    await signIn(annOwn.id, { prospectEmailId: email, workingWithREAgentFlag: false })
    // The same visitor comes back (matched to the same prospect) and visits the shared open houses.
    await signIn(annOwn.id, { prospectEmailId: email, workingWithREAgentFlag: true })
    await signIn(annByBob.id, { prospectEmailId: email })
    await signIn(leadByAnn.id, { prospectEmailId: email })
    await signIn(annByBob.id, { workingWithREAgentFlag: true })
    await signIn(leadByAnn.id, { workingWithREAgentFlag: false })
    await signIn(outside.id)
    await expectNoDrift()

    // A guest signs in at a house that is then handed to another host: its visits go with the house.
    await withdraw(annByBob, bob)
    await claim(annByBob, cy)
    await expectNoDrift()
    await cancel(annByBob, ann)
    await expectNoDrift()
  })

  it('follow the host adding its prospects and a prospect changing its realtor answer', async () => {
    const byBob = await hostedBy(cy, bob)
    const created = await ok(
      t.call('POST', '/prospectmgmt/saveProspect', {
        token: bob.token,
        body: { ...prospectBody(`riley-${randomUUID()}@example.com`, 'false'), openHouseId: byBob.id },
      }),
    )
    const prospect = created.body.data as { id: number; prospectEmailId: string }
    const own = await scheduleOpenHouse(t, bob, { publishLevel: 'Hosting Myself' })
    await ok(
      t.call('POST', '/openhousemgmt/AddAttendee', {
        token: bob.token,
        body: { openHouseId: own.id, prospectId: prospect.id },
      }),
    )
    await expectNoDrift()
    for (const answer of ['true', 'false', 'true'] as const) {
      await ok(
        t.call('PATCH', `/prospectmgmt/saveProspect/${prospect.id}`, {
          token: bob.token,
          body: prospectBody(prospect.prospectEmailId, answer),
        }),
      )
      await expectNoDrift()
    }
  })

  it('lose no visit when many guests sign in at once at open houses the team shares', async () => {
    const a = await hostedBy(ann, bob)
    const b = await hostedBy(bob, ann)
    const email = `crowd-${randomUUID()}@example.com`
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        signIn(i % 2 ? a.id : b.id, {
          // a few of them the same person at both houses
          ...(i % 3 === 0 ? { prospectEmailId: email } : {}),
          workingWithREAgentFlag: i % 4 === 0,
        }),
      ),
    )
    await expectNoDrift()
  })

  it('let a visit go on while another visit of the same agents is still open, and count both', async () => {
    const oh = await hostedBy(ann, bob)
    const elsewhere = await scheduleOpenHouse(t, cy, { publishLevel: 'Hosting Myself' })
    const first = await signIn(elsewhere.id)
    const second = await signIn(elsewhere.id, { workingWithREAgentFlag: true })
    const held = await pool.connect()
    const other = await pool.connect()
    try {
      await held.query('begin')
      // A sign-in answers its visit (decision 029): these visits are of its prospects.
      await held.query('insert into open_house_attendee (open_house_id, prospect_id) values ($1, $2)', [
        oh.id,
        await prospectOfVisit(t, first.body.data.id),
      ])
      // Ann's and Bob's figures are held by the open visit: this one must not wait for it.
      await other.query('begin')
      await other.query("set local lock_timeout = '3s'")
      await other.query('insert into open_house_attendee (open_house_id, prospect_id) values ($1, $2)', [
        oh.id,
        await prospectOfVisit(t, second.body.data.id),
      ])
      await other.query('commit')
      await held.query('commit')
    } finally {
      held.release()
      other.release()
    }
    await expectNoDrift()
  })

  it('count a visit in the figures read once it commits, never while it is still open', async () => {
    const oh = await hostedBy(ann, bob)
    const elsewhere = await scheduleOpenHouse(t, cy, { publishLevel: 'Hosting Myself' })
    const first = await signIn(elsewhere.id)
    const open = await pool.connect()
    try {
      await open.query('begin')
      await open.query('insert into open_house_attendee (open_house_id, prospect_id) values ($1, $2)', [
        oh.id,
        await prospectOfVisit(t, first.body.data.id),
      ])
      // The dashboard read folds what committed, does not wait for the open visit and does not count it.
      await expectNoDrift()
      await open.query('commit')
    } finally {
      open.release()
    }
    await expectNoDrift()
  })

  it('are folded by the worker in batches, with no read asking', async () => {
    const oh = await hostedBy(bob, cy)
    t.startWorker()
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(oh.id, { workingWithREAgentFlag: i % 3 === 0 })),
    )
    const waiting = async () =>
      Number((await pool.query('select count(*) as n from stats_pending')).rows[0].n)
    const until = Date.now() + 10_000
    while ((await waiting()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
    expect(await waiting()).toBe(0)
    const kept = await pool.query(
      `select re_agent_id::int as id, visited_prospects::int as v, visited_prospects_without_realtor::int as nr
       from agent_statistics_now where re_agent_id = any($1) order by 1`,
      [[bob.agent.id, cy.agent.id]],
    )
    const counted = await Promise.all([bob, cy].map((a) => recount([a.agent.id])))
    expect(kept.rows).toEqual(
      [bob, cy].map((a, i) => ({ id: a.agent.id, v: counted[i]?.[3], nr: counted[i]?.[4] })),
    )
  })

  it('follow rows that change outside the API: a deleted guest, visit or open house, a new listing agent', async () => {
    const oh = await hostedBy(cy, ann)
    const first = await signIn(oh.id)
    const second = await signIn(oh.id)
    await signIn(oh.id, { workingWithREAgentFlag: true })
    await expectNoDrift()
    await pool.query('delete from prospect where id = $1', [await prospectOfVisit(t, first.body.data.id)])
    await pool.query('delete from open_house_attendee where id = $1', [second.body.data.id])
    await expectNoDrift()
    await pool.query('update open_house set listing_re_agent_id = $1 where id = $2', [bob.agent.id, oh.id])
    await expectNoDrift()
    await pool.query('delete from guest_token where open_house_id = $1', [oh.id])
    await pool.query('delete from open_house where id = $1', [oh.id])
    await expectNoDrift()
  })

  it('follow the team’s people: one who joins brings its visitors, one who leaves takes them away', async () => {
    const dee = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Dee', lastName: 'Dunn' })
    // Dee hosts one of Ann's open houses and has one of her own, with guests, before she joins.
    const shared = await hostedBy(ann, dee)
    const own = await scheduleOpenHouse(t, dee, { publishLevel: 'Hosting Myself' })
    await signIn(shared.id, { workingWithREAgentFlag: false })
    await signIn(own.id, { workingWithREAgentFlag: false })
    await signIn(own.id, { workingWithREAgentFlag: true })
    const added = await ok(
      t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: teamId, reAgentId: dee.agent.id },
      }),
    )
    await expectNoDrift()
    await acceptTeam(t, dee, teamId)
    people = [lead, ann, bob, cy, dee]
    await expectNoDrift()
    await signIn(own.id)
    await expectNoDrift()
    await ok(
      t.call('DELETE', `/reteammgmt/removeMemberFromRETeam/${added.body.data.id}`, { token: lead.token }),
    )
    people = [lead, ann, bob, cy]
    await expectNoDrift()
  })

  it('stay exact when guests arrive while a member joins and while it leaves', async () => {
    const eve = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Eve', lastName: 'Eng' })
    const own = await scheduleOpenHouse(t, eve, { publishLevel: 'Hosting Myself' })
    const shared = await hostedBy(ann, eve)
    for (let i = 0; i < 4; i++) await signIn(own.id)
    const invited = await ok(
      t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: teamId, reAgentId: eve.agent.id },
      }),
    )
    // Eve's new guests and her joining (her visitors becoming the team's) at once.
    const crowd = () =>
      Array.from({ length: 16 }, (_, i) =>
        signIn(i % 2 ? own.id : shared.id, { workingWithREAgentFlag: i % 3 === 0 }),
      )
    await Promise.all([...crowd(), acceptTeam(t, eve, teamId)])
    people = [lead, ann, bob, cy, eve]
    await expectNoDrift()
    await Promise.all([
      ...crowd(),
      ok(
        t.call('DELETE', `/reteammgmt/removeMemberFromRETeam/${invited.body.data.id}`, { token: lead.token }),
      ),
    ])
    people = [lead, ann, bob, cy]
    await expectNoDrift()
  })

  it('equal what a recount from scratch keeps', async () => {
    const tables = [
      'select * from agent_statistics_now order by 1',
      'select * from agent_visitor order by 1, 2',
      'select * from team_person order by 1, 2',
      'select * from team_visitor order by 1, 2',
      'select * from team_statistics_now order by 1',
    ]
    const read = () => Promise.all(tables.map(async (q) => (await pool.query(q)).rows))
    await pool.query('select stats_fold()')
    const before = await read()
    await pool.query('select stats_rebuild_all()')
    const after = await read()
    // A counter that went back to zero keeps its row; the recount has none for an agent without rows.
    const nonZero = (rows: Array<Record<string, unknown>> = []) =>
      rows.filter((r) => Object.entries(r).some(([k, v]) => k !== 're_agent_id' && Number(v) !== 0))
    expect(nonZero(before[0])).toEqual(nonZero(after[0]))
    expect(before.slice(1)).toEqual(after.slice(1))
  })
})
