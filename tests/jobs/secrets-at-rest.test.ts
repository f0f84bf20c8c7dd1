// Secrets at rest (decision 033), looked for as someone holding a copy of the database would: every
// row of every table, read raw. The Follow Up Boss key, the webhook signing secret, the calendar feed's
// token and the unsubscribe link of a guest's mail are nowhere in it, yet each still works (the receiver
// verifies the signature, Follow Up Boss gets its key, the feed and the link answer). Keys rotate: a
// value sealed with an older key of SECRETS_KEY opens and is sealed again with the new one; a value
// stored before sealing existed is sealed when a worker starts.

import { randomBytes, randomUUID } from 'node:crypto'
import { PUSH_PAYLOAD_COLUMN } from '@porchlight/server/src/modules/push/send.ts'
import { createSecretBox, keyIdOf, parseSecretsKey } from '@porchlight/server/src/secrets.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, TEST_SECRETS_KEY, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { guestSignIn, type Receiver, startReceiver, until, verified } from '../support/webhook-receiver.ts'

let t: TestApp
let smtp: SmtpSink
let hooks: Receiver
let fub: Receiver
const later: TestApp[] = []

const env = () => ({ SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FUB_API_URL: fub.url })

beforeAll(async () => {
  smtp = await startSmtpSink()
  hooks = await startReceiver()
  fub = await startReceiver()
  t = await buildTestApp({ env: env() })
})
afterAll(async () => {
  for (const app of later.reverse()) await app.close()
  await t?.close()
  await smtp?.close()
  await hooks?.close()
  await fub?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

/** Every row of every table of the database, as text: what a stolen copy of it shows. */
async function wholeDatabase(app: TestApp): Promise<string> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(app.db)
  const parts: string[] = []
  for (const { name } of tables) {
    const { rows } = await sql<{ row: unknown }>`select to_jsonb(t) as row from ${sql.table(name)} t`.execute(
      app.db,
    )
    parts.push(`${name}: ${JSON.stringify(rows)}`)
  }
  return parts.join('\n')
}

async function integrations(app: TestApp, who: Agent) {
  const apiKey = `fub_${randomUUID().replaceAll('-', '')}`
  const fubSaved = await app.call('POST', '/webhookmgmt/saveFubConnector', {
    token: who.token,
    body: { apiKey },
  })
  expect(fubSaved.status).toBe(200)
  const path = `/${randomUUID()}`
  const endpoint = await app.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: who.token,
    body: { url: `${hooks.url}${path}`, events: ['prospect.created'] },
  })
  expect(endpoint.status).toBe(201)
  const feed = await app.call('GET', `/openhousemgmt/getCalendarFeedUrl/${who.agent.id}`, {
    token: who.token,
  })
  expect(feed.status).toBe(200)
  const feedUrl = feed.body.data.url as string
  return {
    path,
    apiKey,
    endpointId: endpoint.body.data.id as number,
    secret: endpoint.body.data.secret as string,
    feedUrl,
    feedToken: feedTokenOf(feedUrl),
  }
}

const feedTokenOf = (url: string) => /\/calendar\/([\w-]+)\.ics$/.exec(url)?.[1] ?? ''

const header = (m: ReceivedMail, name: string) =>
  m.raw.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '')

/** The stored values of the sealed columns, raw. */
/** Two pushes to a browser of the agent's, sealed as the worker seals them: one waiting, one sent. */
async function pushesOf(app: TestApp, agent: Awaited<ReturnType<typeof makePlannedAgent>>) {
  const box = createSecretBox([parseSecretsKey(TEST_SECRETS_KEY) as Buffer])
  const subscription = await app.db
    .insertInto('pushSubscription')
    .values({
      reAgentId: agent.agent.id,
      endpoint: `https://push.example.com/send/${randomUUID()}`,
      p256dh: randomBytes(65).toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const message = (status: 'pending' | 'sent') => ({
    subscriptionId: subscription.id,
    event: 'offer.marketCenter',
    payload: box.seal(
      JSON.stringify({ claimToken: randomBytes(32).toString('base64url') }),
      PUSH_PAYLOAD_COLUMN,
    ),
    ttlSeconds: 3600,
    urgency: 'high',
    topic: 'offer',
    expiresAt: new Date(Date.now() + 3_600_000),
    status,
  })
  const [waiting, sent] = await app.db
    .insertInto('pushMessage')
    .values([message('pending'), message('sent')])
    .returning('id')
    .execute()
  return { waitingId: waiting?.id ?? 0, sentId: sent?.id ?? 0 }
}

async function sealedColumns(app: TestApp) {
  const { rows } = await sql<{ v: string }>`
    select secret as v from webhook_endpoint union all select api_key from fub_connector
    union all select token from calendar_feed
    union all select unsubscribe_url from mail where unsubscribe_url is not null
    union all select payload from push_message where status = 'pending'`.execute(app.db)
  return rows.map((r) => r.v)
}

describe('secrets at rest', () => {
  it('keeps no Follow Up Boss key, signing secret, feed token or unsubscribe link readable anywhere in the database, and each still works', async () => {
    t.startWorker()
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const s = await integrations(t, olive)
    const openHouse = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const email = `gina-${randomUUID().slice(0, 8)}@example.com`
    await guestSignIn(t, openHouse.id, { prospectEmailId: email })

    const [mail] = await smtp.waitFor((m) => m.to.includes(email))
    if (!mail) throw new Error('no thank-you mail')
    const link = /^<(.+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1] ?? ''
    expect(link).toMatch(/\/api\/public\/unsubscribe\/[\w-]{20,}$/)
    expect(mail.text).toContain(`Unsubscribe: ${link}`)
    expect(mail.html).toContain(`href="${link}"`)
    const unsubscribeToken = link.split('/').at(-1) ?? ''

    const delivery = await until(() => hooks.at(s.path)[0], 'the webhook delivery')
    expect(verified(delivery, s.secret)).toBe(true)
    const visit = await until(() => fub.at('/v1/events')[0], 'the Follow Up Boss post')
    expect(visit.headers.authorization).toBe(`Basic ${Buffer.from(`${s.apiKey}:`).toString('base64')}`)
    expect((await fetch(s.feedUrl)).status).toBe(200)
    expect((await fetch(link)).status).toBe(200)

    const dump = await wholeDatabase(t)
    expect(dump).toContain(email)
    for (const secret of [
      s.apiKey,
      s.secret,
      s.secret.replace('whsec_', ''),
      s.feedToken,
      unsubscribeToken,
    ]) {
      expect(secret.length).toBeGreaterThan(20)
      expect(dump).not.toContain(secret)
    }
    // The mail as stored holds a placeholder where its link goes.
    const stored = await t.db
      .selectFrom('mail')
      .select(['textBody', 'htmlBody', 'headers', 'unsubscribeUrl'])
      .where('toAddress', '=', email)
      .executeTakeFirstOrThrow()
    expect(stored.textBody).toContain('Unsubscribe: {{porchlight:unsubscribe}}')
    expect(stored.unsubscribeUrl).toMatch(/^sk1\.[\da-f]{8}\./)
    for (const value of await sealedColumns(t)) expect(value).toMatch(/^sk1\.[\da-f]{8}\./)
  })

  it('opens what an older key sealed after a rotation, seals it again with the new key, and then needs only the new one', async () => {
    const base = await buildTestApp({ env: env() })
    later.push(base)
    const vera = await makePlannedAgent(base.db, { firstName: 'Vera' })
    const s = await integrations(base, vera)
    // A push still to send (its claim capability sealed in the payload), and one already sent.
    const pushes = await pushesOf(base, vera)

    const newKey = randomBytes(32).toString('base64')
    const newId = keyIdOf(parseSecretsKey(newKey) as Buffer)
    const oldId = keyIdOf(parseSecretsKey(TEST_SECRETS_KEY) as Buffer)
    for (const value of await sealedColumns(base)) expect(value.startsWith(`sk1.${oldId}.`)).toBe(true)

    // SECRETS_KEY lists the new key first and keeps the old one: everything opens, and a worker's
    // start seals it all again with the new key.
    const rotated = await buildTestApp({
      sameAs: base,
      env: { ...env(), SECRETS_KEY: `${newKey},${TEST_SECRETS_KEY}` },
    })
    later.push(rotated)
    const again = await rotated.call('GET', `/openhousemgmt/getCalendarFeedUrl/${vera.agent.id}`, {
      token: vera.token,
    })
    expect(feedTokenOf(again.body.data.url)).toBe(s.feedToken)
    rotated.startWorker()
    await until(
      async () => (await sealedColumns(base)).every((v) => v.startsWith(`sk1.${newId}.`)),
      'every value sealed with the new key',
    )

    // The push still to send is sealed with the new key; a sent one is never opened again: left as it was.
    const payloads = await base.db
      .selectFrom('pushMessage')
      .select(['id', 'status', 'payload'])
      .where('id', 'in', [pushes.waitingId, pushes.sentId])
      .orderBy('id')
      .execute()
    expect(payloads.map((p) => [p.status, p.payload.slice(0, 13)])).toEqual([
      ['pending', `sk1.${newId}.`],
      ['sent', `sk1.${oldId}.`],
    ])

    // The old key can go: an app holding only the new one reads and signs as before.
    const renewed = await buildTestApp({ sameAs: base, env: { ...env(), SECRETS_KEY: newKey } })
    later.push(renewed)
    const fubRead = await renewed.call('GET', '/webhookmgmt/getFubConnector', { token: vera.token })
    expect(fubRead.body.data.apiKeyLast4).toBe(s.apiKey.slice(-4))
    const feed = await renewed.call('GET', `/openhousemgmt/getCalendarFeedUrl/${vera.agent.id}`, {
      token: vera.token,
    })
    expect(feedTokenOf(feed.body.data.url)).toBe(s.feedToken)
    expect((await fetch(feed.body.data.url)).status).toBe(200)
    const test = await renewed.call('POST', `/webhookmgmt/sendWebhookTestEvent/${s.endpointId}`, {
      token: vera.token,
    })
    expect(test.status).toBe(202)
    const received = await until(() => hooks.at(s.path)[0], 'the test event')
    expect(verified(received, s.secret)).toBe(true)

    // An app holding only a key that sealed none of it opens none of it.
    const stranger = await buildTestApp({
      sameAs: base,
      env: { ...env(), SECRETS_KEY: randomBytes(32).toString('base64') },
    })
    later.push(stranger)
    const refused = await stranger.call('GET', `/openhousemgmt/getCalendarFeedUrl/${vera.agent.id}`, {
      token: vera.token,
    })
    expect(refused.status).toBe(500)
    expect(refused.body).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong' } })
  })

  it('seals values stored before sealing existed when a worker starts, and reads them until then', async () => {
    const base = await buildTestApp({ env: env() })
    later.push(base)
    const rosa = await makePlannedAgent(base.db, { firstName: 'Rosa' })
    const s = await integrations(base, rosa)
    // As migration 202611290005 leaves them: plain.
    await sql`update fub_connector set api_key = ${s.apiKey} where re_agent_id = ${rosa.agent.id}`.execute(
      base.db,
    )
    await sql`update webhook_endpoint set secret = ${s.secret} where id = ${s.endpointId}`.execute(base.db)
    await sql`update calendar_feed set token = ${s.feedToken} where re_agent_id = ${rosa.agent.id}`.execute(
      base.db,
    )
    expect(await sealedColumns(base)).toContain(s.apiKey)

    const fubRead = await base.call('GET', '/webhookmgmt/getFubConnector', { token: rosa.token })
    expect(fubRead.body.data.apiKeyLast4).toBe(s.apiKey.slice(-4))
    expect((await fetch(s.feedUrl)).status).toBe(200)

    base.startWorker()
    await until(
      async () => (await sealedColumns(base)).every((v) => v.startsWith('sk1.')),
      'the plain values sealed',
    )
    const dump = await wholeDatabase(base)
    for (const secret of [s.apiKey, s.secret, s.feedToken]) expect(dump).not.toContain(secret)
    const feed = await base.call('GET', `/openhousemgmt/getCalendarFeedUrl/${rosa.agent.id}`, {
      token: rosa.token,
    })
    expect(feed.body.data.url).toBe(s.feedUrl)
    expect((await fetch(s.feedUrl)).status).toBe(200)
  })

  it('shows a stored mail in the dev mailbox (no SMTP_URL) with its link, as it would have gone out', async () => {
    const local = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
    later.push(local)
    local.startWorker()
    const ida = await makePlannedAgent(local.db, { firstName: 'Ida' })
    const openHouse = await scheduleOpenHouse(local, ida, { publishLevel: 'Hosting Myself' })
    const email = `gina-${randomUUID().slice(0, 8)}@example.com`
    await guestSignIn(local, openHouse.id, { prospectEmailId: email })
    const page = await until(async () => {
      const text = await (await fetch(`${local.url}/dev/mailbox`)).text()
      return text.includes(email) ? text : null
    }, 'the mail in the dev mailbox')
    expect(page).toMatch(/Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/api\/public\/unsubscribe\/[\w-]{20,}/)
    expect(page).not.toContain('{{porchlight:unsubscribe}}')
  })
})
