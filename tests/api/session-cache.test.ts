// Sessions and their agents are kept for a few seconds in each API process (SESSION_CACHE_MS). What is
// kept must never outlive a change: signing out, an agent's row, a team. These tests use two API
// processes with connections of their own, so the second hears of a change only from the database, and
// write "outside the API" through a connection of their own, as the firm-verify command does.
import { SESSION_TTL_MS, sessionIdFromToken } from '@porchlight/server/src/modules/auth/sessions.ts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { until } from '../support/webhook-receiver.ts'

let a: TestApp
let b: TestApp
let outside: pg.Client

beforeAll(async () => {
  a = await buildTestApp({ ownConnections: true })
  b = await buildTestApp({ sameAs: a, ownConnections: true })
  outside = new pg.Client({ connectionString: a.database.url })
  await outside.connect()
})

afterAll(async () => {
  await outside?.end()
  await b?.close()
  await a?.close()
})

/** A licensed agent's own route: 200, or 403 with the reason. */
const feedUrl = (t: TestApp, agent: { token: string; agent: { id: number } }) =>
  t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${agent.agent.id}`, { token: agent.token })

/** The code the route answers once it refuses the agent (403), waiting at most `ms` for it. */
async function refusal(
  t: TestApp,
  agent: { token: string; agent: { id: number } },
  what: string,
  ms: number,
) {
  const refused = await until(
    async () => {
      const res = await feedUrl(t, agent)
      return res.status === 403 ? res : null
    },
    what,
    ms,
  )
  return refused.body.error.code
}

/** Both processes have served the agent (and so keep its session). */
async function servedByBoth(agent: { token: string; agent: { id: number } }) {
  expect((await feedUrl(a, agent)).status).toBe(200)
  expect((await feedUrl(b, agent)).status).toBe(200)
}

/** Deletes the agent's sessions without telling anyone (triggers off): only what is kept still answers. */
async function deleteSessionsSilently(userId: number) {
  await outside.query('begin')
  await outside.query('set local session_replication_role = replica')
  await outside.query('delete from session where user_id = $1', [userId])
  await outside.query('commit')
}

describe('the session cache', () => {
  it('keeps a session for a few seconds, then reads it again', async () => {
    const briefly = await buildTestApp({ sameAs: a, ownConnections: true, env: { SESSION_CACHE_MS: '600' } })
    try {
      const agent = await makePlannedAgent(a.db)
      expect((await feedUrl(briefly, agent)).status).toBe(200)
      await deleteSessionsSilently(agent.user.id)
      // Kept: the session's row is gone, and nothing said so.
      expect((await feedUrl(briefly, agent)).status).toBe(200)
      expect(await refusal(briefly, agent, 'the kept session to lapse', 3000)).toBe('SESSION_EXPIRED')
    } finally {
      await briefly.close()
    }
  })

  it('ends a signed-out session at once where it was signed out, and in the other process as the database tells it', async () => {
    const agent = await makePlannedAgent(a.db)
    await servedByBoth(agent)
    expect((await a.call('POST', '/signing/signout', { token: agent.token })).status).toBe(200)
    const here = await feedUrl(a, agent)
    expect([here.status, here.body.error.code]).toEqual([403, 'SESSION_EXPIRED'])
    expect(await refusal(b, agent, 'the other process to end the session', 2000)).toBe('SESSION_EXPIRED')
  })

  it('hears a change to an agent made outside the API, in every process', async () => {
    const agent = await makePlannedAgent(a.db)
    await servedByBoth(agent)
    await outside.query('update re_agent set re_agent_license_validity_flag = false where id = $1', [
      agent.agent.id,
    ])
    for (const t of [a, b]) {
      expect(await refusal(t, agent, 'the license change to be heard', 2000)).toBe('LICENSE_INVALID')
    }
  })

  it('forgets what a member may do as soon as it leaves the team', async () => {
    const lead = await makePlannedAgent(a.db, { role: 'Team Lead' })
    const member = await makePlannedAgent(a.db)
    const teamId = await makeTeam(a.db, lead, [member])
    const offers = []
    for (const scheduledStartTime of ['10:00 AM', '2:00 PM']) {
      const oh = await scheduleOpenHouse(a, lead, { publishLevel: 'Real Estate Team', scheduledStartTime })
      const published = await publish(a, lead, oh.id, 'Real Estate Team')
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      offers.push(oh)
    }
    const [first, second] = offers as [(typeof offers)[0], (typeof offers)[0]]
    // The member has been served as a member (its session and its team facts are kept).
    const claimed = await b.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${first.id}/${member.agent.id}`,
      {
        token: member.token,
      },
    )
    expect(claimed.status).toBe(200)
    await outside.query('delete from re_team_member where re_team_id = $1 and re_agent_id = $2', [
      teamId,
      member.agent.id,
    ])
    // No longer in the team: the team's other offer is not one it can see. Asked by reading it (a claim
    // that came before the process heard of the change would take the offer, and end the question).
    await until(
      async () =>
        (
          await b.call('GET', `/openhousemgmt/getOpenHouseDetails/${second.id}`, {
            token: member.token,
          })
        ).status === 404,
      'the member to lose the team offer',
      2000,
    )
    const refused = await b.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${second.id}/${member.agent.id}`,
      { token: member.token },
    )
    expect(refused.status).toBe(404)
  })

  it('keeps nothing while the database cannot tell it of changes, and keeps again once it can', async () => {
    const agent = await makePlannedAgent(a.db)
    expect((await feedUrl(b, agent)).status).toBe(200)
    // Every listening connection to this database is cut: neither process can hear a change now.
    await outside.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'listen%'`,
    )
    await deleteSessionsSilently(agent.user.id)
    // What was kept is dropped as the process learns its connection is gone, well before it would lapse.
    expect(await refusal(b, agent, 'the kept session to be dropped', 2000)).toBe('SESSION_EXPIRED')

    // Listening again (the connection comes back within a second or so), sessions are kept again.
    const again = await makePlannedAgent(a.db)
    await until(
      async () => {
        const listeners = await outside.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and query ilike 'listen%'`,
        )
        return listeners.rows[0].n >= 2
      },
      'both processes to listen again',
      5000,
    )
    expect((await feedUrl(b, again)).status).toBe(200)
    await deleteSessionsSilently(again.user.id)
    expect((await feedUrl(b, again)).status).toBe(200)
  })

  it('reads the sessions and teams of agents asking at once together, answering each as itself', async () => {
    // Nothing kept: every request reads its session and agent, then the agent's teams, and requests
    // arriving at the same moment share each read; each must still be answered as its own agent, with
    // its own teams.
    const fresh = await buildTestApp({ sameAs: a, env: { SESSION_CACHE_MS: '0' } })
    try {
      const teams = []
      for (let i = 0; i < 2; i++) {
        const lead = await makePlannedAgent(a.db, { role: 'Team Lead' })
        const member = await makePlannedAgent(a.db)
        await makeTeam(a.db, lead, [member])
        const oh = await scheduleOpenHouse(a, lead, { publishLevel: 'Real Estate Team' })
        expect((await publish(a, lead, oh.id, 'Real Estate Team')).status).toBe(200)
        teams.push({ member, offer: oh.id })
      }
      const outsider = await makePlannedAgent(a.db)
      const [one, two] = teams as [(typeof teams)[0], (typeof teams)[0]]
      const asks = [
        { who: one.member, offer: one.offer, seen: 200 },
        { who: one.member, offer: two.offer, seen: 404 },
        { who: two.member, offer: two.offer, seen: 200 },
        { who: two.member, offer: one.offer, seen: 404 },
        { who: outsider, offer: one.offer, seen: 404 },
        { who: outsider, offer: two.offer, seen: 404 },
      ]
      const all = [...asks, ...asks, ...asks]
      const answers = await Promise.all(
        all.map((ask) =>
          fresh.call('GET', `/openhousemgmt/getOpenHouseDetails/${ask.offer}`, { token: ask.who.token }),
        ),
      )
      const failed = answers.filter((r) => r.status >= 500).map((r) => r.body)
      expect(
        answers.map((r) => r.status),
        `server errors: ${JSON.stringify(failed)}`,
      ).toEqual(all.map((ask) => ask.seen))
    } finally {
      await fresh.close()
    }
  })
})

// A session's expiry slides forward at most once an hour, on a request that reads it (sessions.ts). The
// slide is written beside the request, not before its answer: an agent back after an hour away pays no
// round trip for it. The session must still slide exactly as the policy says, and only when due.
const HOUR_MS = 60 * 60 * 1000

const expiryOf = async (id: string): Promise<Date> =>
  (await outside.query<{ expires_at: Date }>('select expires_at from session where id = $1', [id])).rows[0]
    ?.expires_at ?? new Date(0)

describe("a session's hourly slide", () => {
  it('is not waited for: the request is answered while the slide cannot be written yet', async () => {
    const agent = await makePlannedAgent(a.db)
    const id = sessionIdFromToken(agent.token)
    // Last slid two hours ago: due.
    const due = new Date(Date.now() + SESSION_TTL_MS - 2 * HOUR_MS)
    await outside.query('update session set expires_at = $1 where id = $2', [due, id])
    // Another transaction holds the row: an UPDATE of it waits until that one ends.
    await outside.query('begin')
    await outside.query('select 1 from session where id = $1 for update', [id])
    let answered: number | string
    try {
      answered = await Promise.race([
        feedUrl(a, agent).then((res) => res.status),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting for the slide'), 5000)),
      ])
    } finally {
      await outside.query('rollback')
    }
    expect(answered).toBe(200)
    // Once the row is free the slide lands: thirty days from the request.
    const slid = await until(
      async () => {
        const expiry = await expiryOf(id)
        return expiry.getTime() > due.getTime() ? expiry : null
      },
      'the slide',
      5000,
    )
    expect(slid.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000)
  })

  it('moves the expiry only when an hour has passed since the last slide', async () => {
    const agent = await makePlannedAgent(a.db)
    const id = sessionIdFromToken(agent.token)
    const recent = new Date(Date.now() + SESSION_TTL_MS - HOUR_MS / 2)
    await outside.query('update session set expires_at = $1 where id = $2', [recent, id])
    // Two processes, neither keeping the session: each reads the row, neither slides it.
    expect((await feedUrl(a, agent)).status).toBe(200)
    expect((await feedUrl(b, agent)).status).toBe(200)
    // A slide would have been sent with the request: give one time to land before looking.
    await new Promise((r) => setTimeout(r, 300))
    expect((await expiryOf(id)).getTime()).toBe(recent.getTime())
  })
})
