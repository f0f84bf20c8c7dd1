// Follow Up Boss delivery that never drops a lead silently (decision 041), against a receiver of this
// test's standing in for Follow Up Boss: every answer it can give, what the agent is told, and the retry
// that sends every waiting lead once. The schedule is production's: the test moves the due times in
// PostgreSQL rather than shortening the waits.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { guestSignIn, type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

const SYSTEM_KEY = 'porchlight-system-key-for-tests'
const settle = (ms = 1000) => new Promise((r) => setTimeout(r, ms))

let t: TestApp
let fub: Receiver
let smtp: SmtpSink

beforeAll(async () => {
  fub = await startReceiver()
  smtp = await startSmtpSink()
  t = await buildTestApp({
    env: { FUB_API_URL: fub.url, FUB_SYSTEM_KEY: SYSTEM_KEY, SMTP_URL: smtp.url },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await fub?.close()
  await smtp?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`
const newKey = () => `fub_${randomUUID().replaceAll('-', '')}`

/** An agent with a saved key and an open house it hosts itself: its guests' sign-ins are its leads. */
async function connectedHost() {
  const agent = await makePlannedAgent(t.db)
  const key = newKey()
  await saveKey(agent, key, 200)
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  return { agent, key, oh }
}

async function saveKey(agent: Agent, key: string, expected: number) {
  const res = await t.call('POST', '/webhookmgmt/saveFubConnector', {
    token: agent.token,
    body: { apiKey: key },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(expected)
  return res
}

const connector = async (agent: Agent) => {
  const res = await t.call('GET', '/webhookmgmt/getFubConnector', { token: agent.token })
  expect(res.status).toBe(200)
  return res.body.data as {
    status: string
    lastError: string | null
    lastErrorAt: string | null
    pending: number
    connected: boolean
  }
}

/** The events posted with this key, their guests' emails. */
const postsWith = (key: string) =>
  fub
    .at('/v1/events')
    .filter((r) => r.headers.authorization === basic(key))
    .map((r) => ({ ...r, email: JSON.parse(r.body).person.emails[0].value as string }))

const guest = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`

const deliveriesOf = (agent: Agent) =>
  t.db.selectFrom('fubDelivery').selectAll().where('reAgentId', '=', agent.agent.id).orderBy('id').execute()

/** Time passes (in PostgreSQL): every attempt of this agent's leads waiting for later is due now. */
async function dueNow(agent: Agent) {
  await sql`
    update outbox set run_at = now() where queue = 'fub' and done_at is null and run_at > now()
      and (payload->>'deliveryId')::bigint in (select id from fub_delivery where re_agent_id = ${agent.agent.id})
  `.execute(t.db)
  await sql`
    update fub_delivery set next_attempt_at = now() where re_agent_id = ${agent.agent.id} and next_attempt_at > now()
  `.execute(t.db)
}

describe('Follow Up Boss refusing the key', () => {
  it('stops after one attempt, keeps every lead, tells the agent once, and sends each once after a new key', async () => {
    const { agent, key, oh } = await connectedHost()
    fub.byPath['/v1/events'] = [
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: '{"errorMessage":"Invalid API key."}',
      },
    ]
    const emails = [guest('ana'), guest('bo'), guest('cy')]
    await guestSignIn(t, oh.id, { prospectEmailId: emails[0] })
    await until(async () => (await connector(agent)).status === 'rejected', 'the key marked refused')
    // The next sign-ins are not tried against the refused key at all.
    await guestSignIn(t, oh.id, { prospectEmailId: emails[1] })
    await guestSignIn(t, oh.id, { prospectEmailId: emails[2] })
    await settle(1500)
    expect(postsWith(key)).toHaveLength(1)
    const refused = await connector(agent)
    expect(refused).toMatchObject({ status: 'rejected', pending: 3, connected: true })
    expect(refused.lastError).toContain('Invalid API key.')
    expect(refused.lastErrorAt).not.toBeNull()

    // The agent is told, once for the key, not once per lead.
    const mails = await smtp.waitFor((m) => m.to.includes(agent.agent.reAgentEmailId))
    expect(mails[0]?.subject).toBe('Follow Up Boss refused your API key')
    expect(mails[0]?.text).toContain('Invalid API key.')
    expect(mails[0]?.text).toContain('/mystuff')
    await settle(500)
    expect(smtp.received.filter((m) => m.to.includes(agent.agent.reAgentEmailId))).toHaveLength(1)

    // A new key, then Retry: every waiting lead arrives once, with the system's headers.
    const fixed = newKey()
    await saveKey(agent, fixed, 200)
    const retried = await t.call('POST', '/webhookmgmt/retryFubConnector', { token: agent.token })
    expect(retried.status).toBe(202)
    // A second press at once sends nothing twice.
    await t.call('POST', '/webhookmgmt/retryFubConnector', { token: agent.token })
    await until(() => postsWith(fixed).length >= 3, 'the waiting leads sent with the new key')
    await settle(1500)
    const sent = postsWith(fixed)
    expect(sent.map((p) => p.email).sort()).toEqual([...emails].sort())
    for (const post of sent) {
      expect(post.headers['x-system']).toBe('Porchlight')
      expect(post.headers['x-system-key']).toBe(SYSTEM_KEY)
    }
    expect(await connector(agent)).toMatchObject({ status: 'ok', pending: 0 })
  }, 40_000)

  it('refuses to save a key Follow Up Boss refuses, with its reason, and keeps none', async () => {
    const agent = await makePlannedAgent(t.db)
    fub.byPath['/v1/identity'] = [
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: '{"errorMessage":"Invalid API key."}',
      },
    ]
    const key = newKey()
    const res = await saveKey(agent, key, 422)
    expect(res.body.error).toMatchObject({ code: 'VALIDATION' })
    expect(res.body.error.message).toContain('Invalid API key.')
    expect(res.body.errors).toEqual([
      { field: 'apiKey', message: expect.stringContaining('Invalid API key.') },
    ])
    const tried = fub.at('/v1/identity').filter((r) => r.headers.authorization === basic(key))
    expect(tried).toHaveLength(1)
    expect(tried[0]?.method).toBe('GET')
    expect(tried[0]?.headers['x-system-key']).toBe(SYSTEM_KEY)
    expect(await connector(agent)).toMatchObject({ connected: false, pending: 0 })
  })
})

describe('Follow Up Boss busy or down', () => {
  it('waits as long as a 429 asks (Retry-After) before trying again', async () => {
    const { agent, key, oh } = await connectedHost()
    fub.byPath['/v1/events'] = [{ status: 429, headers: { 'retry-after': '3' } }]
    const email = guest('dee')
    await guestSignIn(t, oh.id, { prospectEmailId: email })
    await until(() => postsWith(key).length >= 2, 'the attempt after the wait', 20_000)
    const [first, second] = postsWith(key)
    expect((second?.at ?? 0) - (first?.at ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(2900)
    expect(postsWith(key).map((p) => p.email)).toEqual([email, email])
    await settle(500)
    expect(postsWith(key)).toHaveLength(2)
    expect(await connector(agent)).toMatchObject({ status: 'ok', pending: 0 })
  }, 30_000)

  it('loses nothing while Follow Up Boss answers 503 for ten minutes, waiting in PostgreSQL on the hours-long schedule', async () => {
    const { agent, key, oh } = await connectedHost()
    let down = true
    const unavailable = { status: 503, body: 'Service Unavailable' }
    // Every post is answered 503 for as long as it is down.
    const refill = setInterval(() => {
      if (down) fub.byPath['/v1/events'] = Array(20).fill(unavailable)
      else delete fub.byPath['/v1/events']
    }, 10)
    try {
      fub.byPath['/v1/events'] = Array(20).fill(unavailable)
      const emails = [guest('eve'), guest('fay'), guest('gus')]
      for (const email of emails) await guestSignIn(t, oh.id, { prospectEmailId: email })

      // Ten minutes of an outage, the waits taken from what each attempt scheduled.
      const waits: number[] = []
      let elapsed = 0
      for (let attempt = 1; elapsed < 10 * 60_000; attempt++) {
        const rows = await until(async () => {
          const r = await deliveriesOf(agent)
          return r.length === 3 && r.every((d) => d.attempts === attempt && d.nextAttemptAt) ? r : null
        }, `attempt ${attempt} of every lead`)
        const [row] = rows
        if (!row?.nextAttemptAt || !row.lastAttemptAt) throw new Error('no attempt recorded')
        const wait = row.nextAttemptAt.getTime() - row.lastAttemptAt.getTime()
        waits.push(wait)
        // Nothing waits in Redis: the attempt is an outbox row, due later, not yet handed to BullMQ. The
        // attempt's own row (handed over) is marked done just after the attempt commits the next one:
        // until then both are open.
        const due = await until(async () => {
          const open = await t.db
            .selectFrom('outbox')
            .select(['runAt', 'relayedAt'])
            .where('queue', '=', 'fub')
            .where('doneAt', 'is', null)
            .where(sql<boolean>`(payload->>'deliveryId')::bigint = ${row.id}`)
            .execute()
          return open.length === 1 ? open[0] : null
        }, `attempt ${attempt} done and the next one waiting`)
        expect(due.relayedAt).toBeNull()
        expect(Number(due.runAt?.getTime())).toBeGreaterThan(Date.now() + wait - 2000)
        const status = await connector(agent)
        expect(status).toMatchObject({ status: 'failing', pending: 3 })
        expect(status.lastError).toContain('503')
        elapsed += wait
        if (elapsed < 10 * 60_000) await dueNow(agent)
      }
      // Production's schedule: seconds, then minutes, then hours; about a day before a lead waits for Retry.
      expect(waits.slice(0, 3)).toEqual([
        expect.closeTo(5_000, -3),
        expect.closeTo(300_000, -3),
        expect.closeTo(1_800_000, -3),
      ])
      expect(t.config.fub.retryDelaysMs.reduce((a, b) => a + b, 0)).toBeGreaterThan(20 * 3600_000)

      // Follow Up Boss is back when the next attempt comes: every lead arrives, each once.
      down = false
      delete fub.byPath['/v1/events']
      await dueNow(agent)
      await until(() => postsWith(key).length >= 9 + 3, 'the leads after the outage')
      await settle(1500)
      const delivered = postsWith(key).slice(9)
      expect(delivered.map((p) => p.email).sort()).toEqual([...emails].sort())
      expect(await connector(agent)).toMatchObject({ status: 'ok', pending: 0 })
    } finally {
      clearInterval(refill)
      delete fub.byPath['/v1/events']
    }
  }, 60_000)

  it('records a 204 as ignored by Follow Up Boss, not delivered, and tries it no more', async () => {
    const { agent, key, oh } = await connectedHost()
    fub.byPath['/v1/events'] = [204]
    await guestSignIn(t, oh.id, { prospectEmailId: guest('hal') })
    await until(async () => (await deliveriesOf(agent))[0]?.status === 'ignored', 'the 204 recorded')
    await settle(1000)
    expect(postsWith(key)).toHaveLength(1)
    const [row] = await deliveriesOf(agent)
    expect(row).toMatchObject({ status: 'ignored', responseStatus: 204 })
    const status = await connector(agent)
    expect(status).toMatchObject({ status: 'ok', pending: 0 })
    expect(status.lastError).toMatch(/^Ignored by Follow Up Boss/)
  })
})

describe('the event', () => {
  it('carries the time a sign-in kept offline was made on the phone', async () => {
    const { key, oh } = await connectedHost()
    const madeAt = new Date(Date.now() - 47 * 60_000).toISOString()
    const email = guest('ida')
    await guestSignIn(t, oh.id, { prospectEmailId: email, savedOffline: 'true', createdDate: madeAt })
    await until(() => postsWith(key).length === 1, 'the offline sign-in')
    expect(JSON.parse(postsWith(key)[0]?.body ?? '{}').occurredAt).toBe(madeAt)
  })
})
