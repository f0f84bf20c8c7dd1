// A request whose database connection dies under it (a restart, a failover, an operator ending the
// session): the process lives on, the request is answered 503 UNAVAILABLE with Retry-After in the
// API's error shape, and the next request is served on a new connection. (The whole restart, across
// processes: tests/faults/postgres-restart.test.ts.)
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

let t: TestApp
let outside: pg.Client

beforeAll(async () => {
  t = await buildTestApp({
    // A pool of the app's own, as in a process of its own.
    ownConnections: true,
    extend: (app) => {
      // A transaction that waits on the server, holding its connection, until the test ends it.
      app.post('/api/test/slow-transaction', async () => {
        await inTransaction(app.deps.db, async (trx) => {
          await sql`select pg_sleep(30), 'slow-transaction'`.execute(trx)
        })
        return { data: { done: true } }
      })
    },
  })
  outside = new pg.Client({ connectionString: t.database.url })
  await outside.connect()
})
afterAll(async () => {
  await outside.end()
  await t.close()
})

describe('a database connection lost under a request', () => {
  it('answers 503 UNAVAILABLE with Retry-After, and serves the next request', async () => {
    const answer = fetch(`${t.url}/api/test/slow-transaction`, { method: 'POST' })
    const running = async () =>
      (
        await outside.query(
          `select pid from pg_stat_activity where query like '%slow-transaction%' and pid <> pg_backend_pid()`,
        )
      ).rows.map((r) => r.pid as number)
    await expect.poll(running, { timeout: 5000, interval: 50 }).toHaveLength(1)
    const [pid] = await running()
    // As a fast shutdown or a failover does to every session: FATAL 57P01, then the socket closes.
    await outside.query('select pg_terminate_backend($1)', [pid])

    const res = await answer
    expect(res.status).toBe(503)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: expect.any(String) } })

    const next = await fetch(`${t.url}/api/pricingplanmgmt/getAllOfferedPricingPlans/0`)
    expect(next.status).toBe(200)
    expect((await fetch(`${t.url}/api/ready`)).status).toBe(200)
  })
})
