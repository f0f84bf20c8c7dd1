// Replays of one delivery asked for at once (a double click, a script, 20 concurrent requests) send it
// once: one conditional write lets exactly one through, however fast the receiver answers the replay,
// and the others answer 409 in the error shape. A minute later it may be replayed again. Counted by a
// real receiver.

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

let t: TestApp
let hooks: Receiver

beforeAll(async () => {
  hooks = await startReceiver()
  t = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    configure: (config) => {
      config.rateLimit.max = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await hooks?.close()
})

const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms))

describe('replay vs replay', () => {
  it('sends a delivery once more for 20 concurrent replays, and for those that come after its attempt ended', async () => {
    const ana = await makePlannedAgent(t.db, { firstName: 'Ana' })
    const saved = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
      token: ana.token,
      body: { url: `${hooks.url}/ana`, events: ['prospect.created'] },
    })
    expect(saved.status).toBe(201)
    const endpointId = saved.body.data.id as number
    const sent = await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${endpointId}`, { token: ana.token })
    expect(sent.status).toBe(202)
    const deliveryId = sent.body.data.id as number
    const status = async () =>
      (
        await t.db
          .selectFrom('webhookDelivery')
          .select('status')
          .where('id', '=', deliveryId)
          .executeTakeFirst()
      )?.status
    await until(async () => (await status()) === 'succeeded', 'the first delivery')
    expect(hooks.at('/ana')).toHaveLength(1)

    const replay = () =>
      t.call('POST', `/webhookmgmt/replayWebhookDelivery/${deliveryId}`, { token: ana.token })
    const answers = await Promise.all(Array.from({ length: 20 }, replay))
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1)
    for (const a of answers.filter((a) => a.status !== 202)) {
      expect(a.status).toBe(409)
      expect(['DELIVERY_PENDING', 'ALREADY_REPLAYED']).toContain(a.body.error.code)
      expect(Object.keys(a.body)).toEqual(['error'])
    }
    await until(() => hooks.at('/ana').length >= 2 && status().then((s) => s === 'succeeded'), 'the replay')

    // The stragglers of the same burst arrive after the replay's attempt ended: still the same replay.
    const late = await Promise.all(Array.from({ length: 5 }, replay))
    expect(late.map((a) => a.status)).toEqual([409, 409, 409, 409, 409])
    expect(late[0]?.body.error).toEqual({
      code: 'ALREADY_REPLAYED',
      message: 'This delivery was replayed less than a minute ago',
    })
    await settle()
    expect(hooks.at('/ana')).toHaveLength(2)
    const [first, again] = hooks.at('/ana')
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id'])

    // A minute on, a replay is a new one.
    await sql`update webhook_delivery set replayed_at = now() - interval '61 seconds' where id = ${deliveryId}`.execute(
      t.db,
    )
    expect((await replay()).status).toBe(202)
    await until(() => hooks.at('/ana').length === 3, 'the second replay')
    await settle(500)
    expect(hooks.at('/ana')).toHaveLength(3)
  })
})
