// Every webhook event type, delivered to a real receiver, checked as an integrator would: the signature
// with the official `standardwebhooks` package, the body against the JSON Schema the API publishes for
// it (the OpenAPI document's `webhooks`, validated by ajv, not by our zod schemas), and every agent id
// with its name beside it.

import { FEEDBACK_RATING_FIELDS, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '@porchlight/shared'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import {
  guestSignIn,
  type Received,
  type Receiver,
  startReceiver,
  until,
} from '../support/webhook-receiver.ts'

let t: TestApp
let hooks: Receiver

beforeAll(async () => {
  hooks = await startReceiver()
  t = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    configure: (config) => {
      config.webhooks.retryDelaysMs = [150, 150]
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await hooks?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
// biome-ignore lint/suspicious/noExplicitAny: bodies are read field by field after ajv checked them.
type Body = { type: string; timestamp: string; data: any }

const nameOf = (a: Agent) => `${a.agent.reAgentFirstName} ${a.agent.reAgentLastName}`

async function endpoint(agent: Agent, path: string, events: readonly string[], teamId?: number) {
  const res = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: agent.token,
    body: { url: `${hooks.url}${path}`, events, ...(teamId === undefined ? {} : { teamId }) },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data as { id: number; secret: string }
}

/** The published JSON Schema of each event type's body, from the served API description. */
async function publishedSchemas() {
  const res = await fetch(`${t.url}/api/docs/json`)
  expect(res.status).toBe(200)
  const doc = await res.json()
  expect(doc.openapi).toMatch(/^3\.1\./)
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  return Object.fromEntries(
    Object.entries(
      doc.webhooks as Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: object }> } } }
      >,
    ).map(([type, item]) => [
      type,
      ajv.compile(item.post.requestBody.content['application/json']?.schema ?? {}),
    ]),
  )
}

/** Verified with the official package (it throws on a bad signature or an old timestamp), then parsed. */
function verifiedBody(r: Received, secret: string): Body {
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]))
  return new Webhook(secret).verify(r.body, headers) as Body
}

it('delivers every event type signed, as its published schema says, with every agent named', async () => {
  const olive = await makePlannedAgent(t.db, { firstName: 'Olive', lastName: 'Lister' })
  const vera = await makePlannedAgent(t.db, { firstName: 'Vera', lastName: 'Host' })
  // Lena leads the team Olive and Vera are in; her endpoint for the team hears them both.
  const lena = await makePlannedAgent(t.db, { firstName: 'Lena', role: 'Team Lead' })
  const teamId = await makeTeam(t.db, lena, [olive, vera])
  const all = [...WEBHOOK_EVENTS]
  const own = await endpoint(olive, '/olive', all)
  const hers = await endpoint(vera, '/vera', all)
  const team = await endpoint(lena, '/team', all, teamId)

  // A guest signs in at Olive's own open house, gives feedback, and Olive records the guest's opt-out.
  const home = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
  const guest = await guestSignIn(t, home.id)
  const feedback = await t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId: home.id,
      prospectId: guest.id,
      guestToken: guest.guestToken,
      feedbackText: 'Lovely kitchen.',
      ...Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, ''])),
      kitchen: 5,
    },
  })
  expect(feedback.status).toBe(201)
  const optOut = await t.call('POST', `/prospectmgmt/optOutProspectEmail/${guest.prospectId}`, {
    token: olive.token,
  })
  expect(optOut.status).toBe(200)

  // Another is offered and claimed by Vera; Vera withdraws, claims again, it moves a day; then canceled.
  const offered = await scheduleOpenHouse(t, olive)
  expect((await publish(t, olive, offered.id)).status).toBe(200)
  const claim = () =>
    t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${offered.id}/${vera.agent.id}`, {
      token: vera.token,
    })
  expect((await claim()).status).toBe(200)
  const withdraw = await t.call(
    'DELETE',
    `/openhousemgmt/withdrawToHostOpenHouse/${offered.id}/${vera.agent.id}`,
    { token: vera.token },
  )
  expect(withdraw.status).toBe(200)
  const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${offered.id}`, {
    token: olive.token,
  })
  const before = details.body.data
  const moved = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${offered.id}`, {
    token: olive.token,
    body: {
      rePropertyId: before.rePropertyId,
      openHouseFor: before.openHouseFor,
      scheduledDate: daysFromNow(4),
      scheduledStartTime: '2:00 PM',
      scheduledEndTime: '4:00 PM',
      openHouseTimezone: before.openHouseTimezone,
      publishLevel: before.publishLevel,
    },
  })
  expect(moved.status, JSON.stringify(moved.body)).toBe(200)
  expect((await claim()).status).toBe(200)
  const cancel = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
    token: olive.token,
    body: { openHouseId: offered.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
  })
  expect(cancel.status).toBe(200)

  // A third is offered, then taken back: Olive hosts it herself.
  const takenBack = await scheduleOpenHouse(t, olive)
  expect((await publish(t, olive, takenBack.id)).status).toBe(200)
  expect((await publish(t, olive, takenBack.id, 'Hosting Myself')).status).toBe(200)

  // And the test event.
  const test = await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${own.id}`, { token: olive.token })
  expect(test.status).toBe(202)

  const types = (path: string) => hooks.at(path).map((r) => JSON.parse(r.body).type as string)
  await until(
    () => [...all, WEBHOOK_TEST_EVENT].every((type) => types('/olive').includes(type)),
    "every event type at Olive's endpoint",
  )
  await until(() => types('/team').includes('openHouse.canceled'), "the team's events")
  await new Promise((r) => setTimeout(r, 500))

  const schemas = await publishedSchemas()
  const secrets: Record<string, string> = { '/olive': own.secret, '/vera': hers.secret, '/team': team.secret }
  const bodies: Record<string, Body[]> = {}
  for (const [path, secret] of Object.entries(secrets)) {
    bodies[path] = hooks.at(path).map((r) => {
      const body = verifiedBody(r, secret)
      const validate = schemas[body.type]
      expect(validate, `a published schema for ${body.type}`).toBeTypeOf('function')
      expect(validate?.(body), `${body.type} at ${path}: ${JSON.stringify(validate?.errors)}`).toBe(true)
      return body
    })
  }
  // Not signed by another secret: the package refuses it.
  const first = hooks.at('/olive')[0]
  expect(first && (() => verifiedBody(first, hers.secret))).toThrow()

  const at = (path: string, type: string) => {
    const found = bodies[path]?.filter((b) => b.type === type) ?? []
    expect(found.length, `${type} at ${path}`).toBeGreaterThan(0)
    return found
  }
  const one = (path: string, type: string) => at(path, type)[0] as Body

  // Every agent id has its name beside it: the open house's agents, the lead's owner, the host of the
  // feedback, the host who withdrew, the team's member.
  for (const body of bodies['/olive'] ?? []) {
    const oh = body.data.openHouse
    if (!oh) continue
    expect(oh.listingREAgentName).toBe(nameOf(olive))
    expect(oh.scheduledByREAgentName).toBe(nameOf(olive))
    expect(oh.hostingREAgentName).toBe(
      oh.hostingREAgentId === vera.agent.id
        ? nameOf(vera)
        : oh.hostingREAgentId === null
          ? null
          : nameOf(olive),
    )
    expect(oh.reProperty.id).toBe(oh.rePropertyId)
    expect(body.data.property).not.toHaveProperty('createdByReAgentId')
    expect(body.data.property).not.toHaveProperty('createdByREAgentId')
  }
  expect(one('/olive', 'prospect.created').data.prospect.createdByREAgentName).toBe(nameOf(olive))
  expect(one('/olive', 'feedback.submitted').data.feedback).toMatchObject({
    hostingREAgentId: olive.agent.id,
    hostingREAgentName: nameOf(olive),
    kitchen: 5,
  })
  expect(one('/olive', 'consent.changed').data.consent).toMatchObject({ emailConsent: false })
  expect(one('/vera', 'openHouse.claimed').data.openHouse).toMatchObject({
    id: offered.id,
    hostingREAgentId: vera.agent.id,
    hostingREAgentName: nameOf(vera),
    status: 'Hosted',
  })

  const withdrawals = at('/olive', 'openHouse.withdrawn')
  expect(withdrawals.map((b) => b.data.withdrawnBy).sort()).toEqual(['host', 'listingAgent'])
  const byHost = withdrawals.find((b) => b.data.withdrawnBy === 'host')
  expect(byHost?.data.previousHost).toEqual({ reAgentId: vera.agent.id, reAgentName: nameOf(vera) })
  expect(byHost?.data.openHouse).toMatchObject({ id: offered.id, hostingREAgentId: null, published: true })
  const byListing = withdrawals.find((b) => b.data.withdrawnBy === 'listingAgent')
  expect(byListing?.data.openHouse).toMatchObject({
    id: takenBack.id,
    published: false,
    hostingREAgentId: olive.agent.id,
  })
  // The host who withdrew hears it too.
  expect(at('/vera', 'openHouse.withdrawn').map((b) => b.data.openHouse.id)).toEqual([offered.id])

  const rescheduled = one('/olive', 'openHouse.rescheduled').data
  expect(rescheduled.previous).toMatchObject({
    scheduledDate: before.scheduledDate,
    scheduledStartTime: before.scheduledStartTime,
    scheduledEndTime: before.scheduledEndTime,
    startsAt: before.startsAt,
  })
  expect(rescheduled.current).toMatchObject({
    scheduledDate: daysFromNow(4),
    scheduledStartTime: '2:00 PM',
    scheduledEndTime: '4:00 PM',
  })
  expect(rescheduled.current.startsAt).toBe(rescheduled.openHouse.startsAt)

  // The team's endpoint names the team and the member whose event it is.
  for (const body of bodies['/team'] ?? []) {
    expect(body.data.team).toMatchObject({ id: teamId, agentId: expect.any(Number) })
    expect(body.data.team.agentName).toBe(
      body.data.team.agentId === vera.agent.id ? nameOf(vera) : nameOf(olive),
    )
    expect(body.data.team.reTeamName).toEqual(expect.any(String))
    expect(body.data.team.reTeamName.length).toBeGreaterThan(0)
  }
  expect(new Set((bodies['/team'] ?? []).map((b) => b.type))).toEqual(new Set(all))
}, 90_000)
