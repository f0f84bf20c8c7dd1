// The answers to an open house's custom questions travel with the sign-in: in the attendee.added and
// prospect.created payloads, and as lines of the Follow Up Boss message.

import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

let t: TestApp
let hooks: Receiver
let fub: Receiver

beforeAll(async () => {
  hooks = await startReceiver()
  fub = await startReceiver()
  t = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FUB_API_URL: fub.url },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await hooks?.close()
  await fub?.close()
})

it('sends the answers with their questions in attendee.added, prospect.created and the Follow Up Boss message', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Quinn' })
  const saved = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: agent.token,
    body: { url: `${hooks.url}/crm`, events: ['attendee.added', 'prospect.created'] },
  })
  expect(saved.status).toBe(201)
  const key = `fub_${randomUUID().replaceAll('-', '')}`
  expect(
    (await t.call('POST', '/webhookmgmt/saveFubConnector', { token: agent.token, body: { apiKey: key } }))
      .status,
  ).toBe(200)
  const oh = (await scheduleOpenHouse(t, agent, {
    publishLevel: 'Hosting Myself',
    customQuestions: [
      { text: 'Are you pre-approved?', kind: 'yesno' },
      { text: 'Which room did you like best?', kind: 'choice', choices: ['Kitchen', 'Garden'] },
    ],
  })) as unknown as { id: number; customQuestions: Array<{ id: number }> }
  const [approved, room] = oh.customQuestions.map((q) => q.id)
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Rosa',
      prospectLastName: 'Diaz',
      prospectEmailId: `rosa-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '678 555 0199',
      openHouseId: oh.id,
      clientRequestId: randomUUID(),
      customAnswers: { [String(approved)]: 'Yes', [String(room)]: 'Garden' },
    },
  })
  expect(res.status).toBe(201)

  const expected = [
    { questionId: approved, question: 'Are you pre-approved?', answer: 'Yes' },
    { questionId: room, question: 'Which room did you like best?', answer: 'Garden' },
  ]
  await until(() => hooks.received.length === 2, 'both events')
  const byType = Object.fromEntries(
    hooks.received.map((r) => {
      const e = JSON.parse(r.body) as { type: string; data: Record<string, unknown> }
      return [e.type, e.data]
    }),
  ) as Record<string, { customAnswers?: unknown; attendee?: { customAnswers: unknown } }>
  expect(byType['attendee.added']?.attendee?.customAnswers).toEqual(expected)
  expect(byType['prospect.created']?.customAnswers).toEqual(expected)

  await until(() => fub.at('/v1/events').length === 1, 'the Follow Up Boss event')
  const message: string = JSON.parse(fub.at('/v1/events')[0]?.body ?? '{}').message
  expect(message).toContain('Are you pre-approved?: Yes')
  expect(message).toContain('Which room did you like best?: Garden')
})
