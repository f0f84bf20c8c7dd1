// Outgoing webhooks and the Follow Up Boss connector against real HTTP receivers in this process: the
// events are written with the change, relayed through the outbox to BullMQ, signed per Standard Webhooks,
// retried on the shortened schedule the test app is given, replayed from the log.

import { randomUUID } from 'node:crypto'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { guestSignIn, type Receiver, startReceiver, until, verified } from '../support/webhook-receiver.ts'

const settle = (ms = 800) => new Promise((r) => setTimeout(r, ms))

let t: TestApp
let hooks: Receiver
let fub: Receiver

beforeAll(async () => {
  hooks = await startReceiver()
  fub = await startReceiver()
  t = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FUB_API_URL: fub.url },
    configure: (config) => {
      config.webhooks.retryDelaysMs = [150, 150, 150, 150]
      config.webhooks.timeoutMs = 2000
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await hooks?.close()
  await fub?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function endpoint(agent: Agent, path: string, events: string[]) {
  const res = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: agent.token,
    body: { url: `${hooks.url}${path}`, events, description: 'CRM' },
  })
  expect(res.status).toBe(201)
  return res.body.data as { id: number; secret: string }
}

const at = (path: string) => hooks.received.filter((r) => r.path === path)
// biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field.
const events = (path: string) => at(path).map((r) => JSON.parse(r.body) as { type: string; data: any })

describe('outgoing webhooks', () => {
  it('delivers each event once, signed with the published secret, with the whole payload', async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const vera = await makePlannedAgent(t.db, { firstName: 'Vera' })
    const all = [
      'prospect.created',
      'attendee.added',
      'feedback.submitted',
      'openHouse.published',
      'openHouse.claimed',
      'openHouse.canceled',
    ]
    const { secret } = await endpoint(olive, '/olive', all)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)

    // A guest signs in at Olive's own open house, and gives feedback.
    const own = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const guest = await guestSignIn(t, own.id)
    const feedback = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: {
        openHouseId: own.id,
        prospectId: guest.id,
        guestToken: guest.guestToken,
        feedbackText: 'Lovely kitchen.',
        ...Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, ''])),
        kitchen: 5,
      },
    })
    expect(feedback.status).toBe(201)

    // Another open house is offered, claimed by Vera, then canceled.
    const offered = await scheduleOpenHouse(t, olive)
    expect((await publish(t, olive, offered.id)).status).toBe(200)
    const claim = await t.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${offered.id}/${vera.agent.id}`,
      {
        token: vera.token,
      },
    )
    expect(claim.status).toBe(200)
    const cancel = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: olive.token,
      body: { openHouseId: offered.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(cancel.status).toBe(200)

    await until(() => at('/olive').length >= 6, 'six events')
    await settle()
    const got = at('/olive')
    expect(got.map((r) => JSON.parse(r.body).type).sort()).toEqual([...all].sort())
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(6)
    for (const r of got) {
      expect(verified(r, secret)).toBe(true)
      expect(verified(r, `whsec_${Buffer.alloc(24, 1).toString('base64')}`)).toBe(false)
      expect(r.headers['webhook-id']).toMatch(/^msg_/)
      expect(r.headers['content-type']).toBe('application/json')
    }

    const byType = Object.fromEntries(events('/olive').map((e) => [e.type, e]))
    const of = (type: string) => {
      const event = byType[type]
      if (!event) throw new Error(`no ${type}`)
      return event
    }
    const created = of('prospect.created')
    expect(created.data.prospect).toMatchObject({
      id: guest.prospectId,
      prospectFirstName: 'Gina',
      prospectPhoneNumber: '404 555 0123',
      contactMasked: false,
      homeBuyingTimelines: '1-3 Months',
    })
    expect(created.data.prospect.prospectEmailId).toMatch(/^gina-.*@example\.com$/)
    expect(created.data.consent).toMatchObject({
      prospectId: guest.prospectId,
      emailConsent: true,
      smsConsent: false,
    })
    expect(created.data.openHouse).toMatchObject({ id: own.id, listingREAgentId: olive.agent.id })
    expect(created.data.property).toMatchObject({ id: own.rePropertyId, propertyCity: 'Alpharetta' })
    expect(created.data.property.completePropertyAddress).toContain('Lantern Way')

    const added = of('attendee.added')
    expect(added.data.attendee).toMatchObject({ openHouseId: own.id, prospectId: guest.prospectId })
    expect(added.data.attendee.answers).toMatchObject({ homeBuyingTimelines: '1-3 Months' })
    expect(added.data.prospect.id).toBe(guest.prospectId)
    expect(added.data.property.id).toBe(own.rePropertyId)

    expect(of('feedback.submitted').data.feedback).toMatchObject({
      prospectId: guest.prospectId,
      feedbackText: 'Lovely kitchen.',
      kitchen: 5,
    })
    expect(of('feedback.submitted').data.prospect.id).toBe(guest.prospectId)
    expect(of('openHouse.published').data.openHouse).toMatchObject({ id: offered.id, published: true })
    expect(of('openHouse.claimed').data.openHouse).toMatchObject({
      id: offered.id,
      hostingREAgentId: vera.agent.id,
    })
    expect(of('openHouse.canceled').data.openHouse).toMatchObject({
      id: offered.id,
      openHouseCanceledFlag: true,
    })
    for (const e of events('/olive')) expect(e.data.openHouse ?? e.data.prospect).toBeTruthy()

    // The log shows each delivery, succeeded, with the receiver's answer.
    const list = await t.call('GET', `/webhookmgmt/getWebhookEndpointsByREAgentId/${olive.agent.id}`, {
      token: olive.token,
    })
    expect(list.body.data).toHaveLength(1)
    expect(JSON.stringify(list.body.data)).not.toContain(secret)
    const log = await t.call('GET', `/webhookmgmt/getWebhookDeliveries/${list.body.data[0].id}`, {
      token: olive.token,
    })
    expect(log.body.data).toHaveLength(6)
    for (const d of log.body.data) {
      expect(d).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        responseStatus: 200,
        responseExcerpt: 'ok thanks',
      })
      expect(d.latencyMs).toBeGreaterThanOrEqual(0)
    }
  })

  it('sends nothing for events an endpoint does not listen for, nor to another agent', async () => {
    const ann = await makePlannedAgent(t.db, { firstName: 'Ann' })
    const bob = await makePlannedAgent(t.db, { firstName: 'Bob' })
    await endpoint(ann, '/ann', ['openHouse.canceled'])
    await endpoint(bob, '/bob', ['prospect.created', 'attendee.added'])
    const oh = await scheduleOpenHouse(t, ann, { publishLevel: 'Hosting Myself' })
    await guestSignIn(t, oh.id)
    await settle(1200)
    expect(at('/ann')).toEqual([])
    expect(at('/bob')).toEqual([])
  })

  it('gets the event to a receiver answering 500 three times exactly once more, with the same webhook-id', async () => {
    const cleo = await makePlannedAgent(t.db, { firstName: 'Cleo' })
    const { secret } = await endpoint(cleo, '/flaky', ['prospect.created'])
    hooks.answers.push(500, 500, 500)
    const oh = await scheduleOpenHouse(t, cleo, { publishLevel: 'Hosting Myself' })
    await guestSignIn(t, oh.id)
    await until(() => at('/flaky').length >= 4, 'four attempts')
    await settle(1000)
    const got = at('/flaky')
    expect(got).toHaveLength(4)
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(got.every((r) => verified(r, secret))).toBe(true)
    const [delivery] = await t.db
      .selectFrom('webhookDelivery')
      .selectAll()
      .where('messageId', '=', String(got[0]?.headers['webhook-id']))
      .execute()
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 4, responseStatus: 200 })
  })

  it('replays a delivery from the log with the same webhook-id, and sends a test event', async () => {
    const dora = await makePlannedAgent(t.db, { firstName: 'Dora' })
    const { id, secret } = await endpoint(dora, '/replay', ['prospect.created'])
    const oh = await scheduleOpenHouse(t, dora, { publishLevel: 'Hosting Myself' })
    await guestSignIn(t, oh.id)
    await until(() => at('/replay').length === 1, 'the event')
    const log = await until(async () => {
      const res = await t.call('GET', `/webhookmgmt/getWebhookDeliveries/${id}`, { token: dora.token })
      return res.body.data[0]?.status === 'succeeded' ? res.body.data : null
    }, 'the log')
    const replay = await t.call('POST', `/webhookmgmt/replayWebhookDelivery/${log[0].id}`, {
      token: dora.token,
    })
    expect(replay.status).toBe(202)
    await until(() => at('/replay').length === 2, 'the replay')
    const [first, again] = at('/replay')
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id'])
    expect(again?.body).toBe(first?.body)
    expect(again && verified(again, secret)).toBe(true)

    const test = await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${id}`, { token: dora.token })
    expect(test.status).toBe(202)
    await until(() => at('/replay').length === 3, 'the test event')
    const sent = at('/replay')[2]
    expect(sent && JSON.parse(sent.body).type).toBe('webhook.test')
    expect(sent && verified(sent, secret)).toBe(true)
    await settle()
    expect(at('/replay')).toHaveLength(3)

    // Someone else learns nothing of the endpoint or its log.
    const eve = await makePlannedAgent(t.db, { firstName: 'Eve' })
    for (const [method, path] of [
      ['GET', `/webhookmgmt/getWebhookDeliveries/${id}`],
      ['POST', `/webhookmgmt/replayWebhookDelivery/${log[0].id}`],
      ['POST', `/webhookmgmt/sendWebhookTestEvent/${id}`],
      ['DELETE', `/webhookmgmt/deleteWebhookEndpoint/${id}`],
    ] as const) {
      expect((await t.call(method, path, { token: eve.token })).status).toBe(404)
    }
    expect(
      (
        await t.call('GET', `/webhookmgmt/getWebhookEndpointsByREAgentId/${dora.agent.id}`, {
          token: eve.token,
        })
      ).status,
    ).toBe(403)
    expect(
      (await t.call('DELETE', `/webhookmgmt/deleteWebhookEndpoint/${id}`, { token: dora.token })).status,
    ).toBe(200)
    expect(
      (await t.db.selectFrom('webhookDelivery').select('id').where('endpointId', '=', id).execute()).length,
    ).toBe(0)
  })

  it('fails a delivery after the last retry, and disables an endpoint failing for three days, telling its owner', async () => {
    const finn = await makePlannedAgent(t.db, { firstName: 'Finn' })
    const { id } = await endpoint(finn, '/down', ['prospect.created'])
    await t.db
      .updateTable('webhookEndpoint')
      .set({ failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) })
      .where('id', '=', id)
      .execute()
    hooks.answers.push(503)
    const oh = await scheduleOpenHouse(t, finn, { publishLevel: 'Hosting Myself' })
    await guestSignIn(t, oh.id)
    const row = await until(
      () =>
        t.db
          .selectFrom('webhookEndpoint')
          .selectAll()
          .where('id', '=', id)
          .where('disabledAt', 'is not', null)
          .executeTakeFirst(),
      'the endpoint disabled',
    )
    expect(row.disabledAt).not.toBeNull()
    const mail = await until(
      () =>
        t.db
          .selectFrom('mail')
          .selectAll()
          .where('toAddress', '=', finn.agent.reAgentEmailId)
          .where('subject', 'like', '%webhook%')
          .executeTakeFirst(),
      'the mail to the owner',
    )
    expect(mail.textBody).toContain(`${hooks.url}/down`)
    const delivery = await until(
      () =>
        t.db
          .selectFrom('webhookDelivery')
          .selectAll()
          .where('endpointId', '=', id)
          .where('status', '=', 'failed')
          .executeTakeFirst(),
      'the delivery failed',
    )
    expect(delivery).toMatchObject({ attempts: 1, responseStatus: 503 })
    // A disabled endpoint hears no more events; a successful test event turns it back on.
    await guestSignIn(t, oh.id)
    await settle()
    expect(at('/down')).toHaveLength(1)
    expect(
      (await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${id}`, { token: finn.token })).status,
    ).toBe(202)
    await until(
      () =>
        t.db
          .selectFrom('webhookEndpoint')
          .select('id')
          .where('id', '=', id)
          .where('disabledAt', 'is', null)
          .executeTakeFirst(),
      'the endpoint enabled again',
    )

    // Without the 3-day clock, a delivery that keeps failing ends failed after the schedule's retries.
    const gus = await makePlannedAgent(t.db, { firstName: 'Gus' })
    const dead = await endpoint(gus, '/dead', ['prospect.created'])
    hooks.answers.push(500, 500, 500, 500, 500)
    const ghOh = await scheduleOpenHouse(t, gus, { publishLevel: 'Hosting Myself' })
    await guestSignIn(t, ghOh.id)
    const failed = await until(
      () =>
        t.db
          .selectFrom('webhookDelivery')
          .selectAll()
          .where('endpointId', '=', dead.id)
          .where('status', '=', 'failed')
          .executeTakeFirst(),
      'the delivery failed after its retries',
    )
    expect(failed).toMatchObject({ attempts: 5, responseStatus: 500 })
    expect(at('/dead')).toHaveLength(5)
  })

  it('refuses loopback, private and link-local targets without the setting, on save and again at delivery', async () => {
    const hana = await makePlannedAgent(t.db, { firstName: 'Hana' })
    const kept = await endpoint(hana, '/private', ['prospect.created'])
    t.config.webhooks.allowPrivateTargets = false
    try {
      for (const url of [
        `${hooks.url}/x`,
        'http://localhost:9/x',
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/x',
        'http://[::1]:9/x',
        'http://[::ffff:127.0.0.1]/x',
      ]) {
        const res = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
          token: hana.token,
          body: { url, events: ['prospect.created'] },
        })
        expect(res.status, url).toBe(422)
        expect(res.body.errors[0].field).toBe('url')
      }
      const test = await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${kept.id}`, { token: hana.token })
      expect(test.status).toBe(202)
      const failed = await until(
        () =>
          t.db
            .selectFrom('webhookDelivery')
            .selectAll()
            .where('endpointId', '=', kept.id)
            .where('status', '=', 'failed')
            .executeTakeFirst(),
        'the delivery refused',
      )
      expect(failed.lastError).toMatch(/private/)
      expect(at('/private')).toEqual([])
    } finally {
      t.config.webhooks.allowPrivateTargets = true
    }
  })

  it('checks what an endpoint is saved with', async () => {
    const ida = await makePlannedAgent(t.db, { firstName: 'Ida' })
    const bad = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
      token: ida.token,
      body: { url: 'ftp://example.com/x', events: ['nope'] },
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((f: { field: string }) => f.field).sort()).toEqual(['events.0', 'url'])
  })
})

describe('the contract', () => {
  it('describes the webhook and Follow Up Boss routes in the OpenAPI document', async () => {
    const doc = await (await fetch(`${t.url}/api/docs/json`)).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/webhookmgmt/saveWebhookEndpoint',
        '/api/webhookmgmt/getWebhookEndpointsByREAgentId/{agentId}',
        '/api/webhookmgmt/getWebhookDeliveries/{endpointId}',
        '/api/webhookmgmt/replayWebhookDelivery/{deliveryId}',
        '/api/webhookmgmt/sendWebhookTestEvent/{endpointId}',
        '/api/webhookmgmt/deleteWebhookEndpoint/{endpointId}',
        '/api/webhookmgmt/getFubConnector',
        '/api/webhookmgmt/saveFubConnector',
        '/api/webhookmgmt/deleteFubConnector',
      ]),
    )
    const save = doc.paths['/api/webhookmgmt/saveWebhookEndpoint'].post
    expect(Object.keys(save.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'description',
      'events',
      'teamId',
      'url',
    ])
  })
})

describe('Follow Up Boss', () => {
  it("posts each guest sign-in as its documented 'Visited Open House' event with the agent's key", async () => {
    const jo = await makePlannedAgent(t.db, { firstName: 'Jo' })
    const key = `fub_${randomUUID().replaceAll('-', '')}`
    const saved = await t.call('POST', '/webhookmgmt/saveFubConnector', {
      token: jo.token,
      body: { apiKey: key },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.data).toMatchObject({ connected: true, apiKeyLast4: key.slice(-4) })
    const read = await t.call('GET', '/webhookmgmt/getFubConnector', { token: jo.token })
    expect(JSON.stringify(read.body)).not.toContain(key)
    expect(read.body.data.apiKeyLast4).toBe(key.slice(-4))

    const oh = await scheduleOpenHouse(t, jo, { publishLevel: 'Hosting Myself', mlsId: 'MLS-4411' })
    await guestSignIn(t, oh.id, {
      prospectFirstName: 'Rosa',
      prospectLastName: 'Diaz',
      prospectEmailId: 'rosa.diaz@example.com',
      prospectPhoneNumber: '678 555 0199',
      bestTimeToContact: 'Evening',
    })
    await until(() => fub.at('/v1/events').length === 1, 'the Follow Up Boss event')
    const [req] = fub.at('/v1/events')
    expect(req?.headers.authorization).toBe(`Basic ${Buffer.from(`${key}:`).toString('base64')}`)
    expect(req?.headers['content-type']).toBe('application/json')
    const body = JSON.parse(req?.body ?? '{}')
    expect(body).toMatchObject({
      source: 'Porchlight',
      system: 'Porchlight',
      type: 'Visited Open House',
      person: {
        firstName: 'Rosa',
        lastName: 'Diaz',
        emails: [{ value: 'rosa.diaz@example.com' }],
        phones: [{ value: '678 555 0199' }],
      },
      property: { city: 'Alpharetta', mlsNumber: 'MLS-4411' },
    })
    expect(body.property.street).toMatch(/Lantern Way$/)
    expect(body.property.state).toBeTruthy()
    expect(body.property.code).toMatch(/^\d{5}$/)
    expect(body.message).toContain('Lantern Way')
    expect(body.message).toContain('Buying timeline: 1-3 Months')
    expect(body.message).toContain('Best time to contact: Evening')

    // Without a key nothing is posted.
    expect((await t.call('DELETE', '/webhookmgmt/deleteFubConnector', { token: jo.token })).status).toBe(200)
    await guestSignIn(t, oh.id)
    await settle()
    expect(fub.at('/v1/events')).toHaveLength(1)
  })
})
