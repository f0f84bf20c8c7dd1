// Redis restarted empty while Follow Up Boss is being sent leads (decision 041): the outbox hands the
// lost jobs over again, and a job that runs again while its first run is still waiting for Follow Up
// Boss finds the delivery leased and posts nothing. Each lead reaches Follow Up Boss once. The Redis
// here is the test's own; Follow Up Boss is a receiver of the test's that answers slowly.

import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'
import { guestSignIn, type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

const LEADS = 5
let redis: OwnRedis
let fub: Receiver
let t: TestApp

beforeAll(async () => {
  redis = await startOwnRedis()
  fub = await startReceiver()
  t = await buildTestApp({
    env: { REDIS_URL: redis.url, FUB_API_URL: fub.url },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
      // Rows handed to a Redis that lost them are handed over again soon, not after a minute.
      config.relay.redeliverAfterMs = 2000
    },
  })
  t.startWorker()
}, 60_000)
afterAll(async () => {
  await t?.close()
  await fub?.close()
  await redis?.stop()
})

describe('Follow Up Boss and a Redis restart', () => {
  it('posts each lead once when Redis restarts empty mid-delivery', async () => {
    const agent = await makePlannedAgent(t.db)
    const saved = await t.call('POST', '/webhookmgmt/saveFubConnector', {
      token: agent.token,
      body: { apiKey: `fub_${randomUUID().replaceAll('-', '')}` },
    })
    expect(saved.status).toBe(200)
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })

    // Follow Up Boss takes four seconds to answer: the restart comes while every post waits for it.
    fub.setDelay(4000)
    const emails = Array.from({ length: LEADS }, (_, i) => `lead${i}-${randomUUID().slice(0, 8)}@example.com`)
    for (const email of emails) await guestSignIn(t, oh.id, { prospectEmailId: email })
    await until(() => fub.at('/v1/events').length >= LEADS, 'every lead being posted', 20_000)

    await redis.stop()
    await redis.start()

    const postsOf = (email: string) => fub.at('/v1/events').filter((r) => r.body.includes(email)).length
    await until(
      async () => {
        const rows = await t.db
          .selectFrom('fubDelivery')
          .select('status')
          .where('reAgentId', '=', agent.agent.id)
          .execute()
        return rows.length === LEADS && rows.every((r) => r.status === 'delivered')
      },
      'every lead delivered',
      30_000,
    )
    // The jobs Redis lost are handed over again (and retried while leased); none posts a second time.
    await new Promise((r) => setTimeout(r, 8000))
    expect(emails.map(postsOf)).toEqual(emails.map(() => 1))
    const jobsLeft = await t.db
      .selectFrom('outbox')
      .select('id')
      .where('queue', '=', 'fub')
      .where('doneAt', 'is', null)
      .where('failedAt', 'is', null)
      .execute()
    expect(jobsLeft).toEqual([])
  }, 90_000)
})
