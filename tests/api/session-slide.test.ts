// A session's expiry slides forward at most once an hour, on a request that reads it (sessions.ts). The
// slide is written beside the request, not before its answer: an agent back after an hour away pays no
// round trip for it. The session must still slide exactly as the policy says, and only when due.
import { SESSION_TTL_MS, sessionIdFromToken } from '@porchlight/server/src/modules/auth/sessions.ts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { until } from '../support/webhook-receiver.ts'

const HOUR_MS = 60 * 60 * 1000

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

const expiryOf = async (id: string): Promise<Date> =>
  (await outside.query<{ expires_at: Date }>('select expires_at from session where id = $1', [id])).rows[0]
    ?.expires_at ?? new Date(0)

/** A licensed agent's own route, as any request of the agent. */
const feedUrl = (t: TestApp, agent: { token: string; agent: { id: number } }) =>
  t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${agent.agent.id}`, { token: agent.token })

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
