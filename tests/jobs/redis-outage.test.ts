import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { collect, connectSocket } from '../support/socket.ts'

// A Redis of this test's own, so it can be stopped and started again on the same port.
let redis: OwnRedis
let a: TestApp
let b: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  redis = await startOwnRedis()
  smtp = await startSmtpSink()
  const env = { REDIS_URL: redis.url, SMTP_URL: smtp.url }
  a = await buildTestApp({ env })
  a.startWorker()
  b = await buildTestApp({ sameAs: a, env })
})
afterAll(async () => {
  await b.close()
  await a.close()
  await smtp.close()
  await redis.stop()
})

describe('Redis away for a while', () => {
  it('keeps the API answering, then sends every queued mail and tells clients to catch up', async () => {
    const listing = await makePlannedAgent(a.db)
    const watcher = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(a, listing)
    const socket = await connectSocket(b.url, { token: watcher.token })
    const published = collect(socket, 'opportunity.published')
    const resync = collect(socket, 'sync.required')

    await redis.stop()
    // PostgreSQL still answers: the API publishes and signs guests in.
    expect((await publish(a, listing, oh.id)).status).toBe(200)
    const guests = ['ana', 'ben', 'cy'].map((n) => `${n}-${randomUUID().slice(0, 6)}@example.com`)
    for (const email of guests) {
      const res = await a.call('POST', '/public/saveProspect', {
        body: {
          prospectFirstName: 'Guest',
          prospectLastName: 'Outage',
          prospectEmailId: email,
          prospectPhoneNumber: '404 555 0123',
          openHouseId: oh.id,
          clientRequestId: randomUUID(),
          emailConsent: 'true',
          consentText: 'The agent may email me.',
        },
      })
      expect(res.status).toBe(201)
    }
    expect((await a.call('GET', '/ready')).status).toBe(503)
    // The worker welcomes the consenting guests with PostgreSQL alone (decision 053): their thank-yous
    // are written, and wait with their send job in the outbox, as the publish's events do, for Redis.
    const queued = () =>
      a.db
        .selectFrom('mail')
        .select('status')
        .where('toAddress', 'in', guests)
        .execute()
        .then((rows) => rows.map((r) => r.status))
    await expect.poll(queued, { timeout: 10_000 }).toEqual(['queued', 'queued', 'queued'])
    const waiting = await a.db.selectFrom('outbox').select('queue').where('relayedAt', 'is', null).execute()
    expect(new Set(waiting.map((w) => w.queue))).toContain('mail')
    expect(waiting.length).toBeGreaterThanOrEqual(2)

    await redis.start()
    for (const email of guests) await smtp.waitFor((m) => m.to.includes(email), 1, 20_000)
    // The watcher on the other process hears of the publish, or is told to refetch; either way it catches up.
    await expect.poll(() => published.length + resync.length, { timeout: 15_000 }).toBeGreaterThan(0)
    const offered = await b.call('GET', `/openhousemgmt/getAvailableToHostOH/${watcher.agent.id}`, {
      token: watcher.token,
    })
    expect(offered.body.data.map((o: { id: number }) => o.id)).toContain(oh.id)
    expect((await a.call('GET', '/ready')).status).toBe(200)
    socket.close()
  }, 60_000)
})
