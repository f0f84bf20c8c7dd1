// The guest's mail and its consent ledger, against a real SMTP sink and a real webhook receiver: the
// thank-you at once (the worker welcomes the guest, decision 053), the agent's follow-up two days later (the test brings its outbox row forward), the
// RFC 8058 one-click unsubscribe read from the mail's own header, and the suppression that follows it.

import { randomUUID } from 'node:crypto'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { prospectOfVisit, scheduleOpenHouse } from '../support/open-houses.ts'
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

const LISTING = 'https://listings.example.com/12-porch-lane'
const TWO_DAYS = 2 * 24 * 3600 * 1000

let t: TestApp
let smtp: SmtpSink
let hooks: Receiver

beforeAll(async () => {
  smtp = await startSmtpSink()
  hooks = await startReceiver()
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
  await hooks?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function guestSignIn(openHouseId: number, email: string, emailConsent = true) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Gina',
      prospectLastName: 'Visitor',
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
      emailConsent,
      consentText: emailConsent ? 'Email me about homes like this one.' : null,
    },
  })
  expect(res.status).toBe(201)
  // The agent's prospect behind the visit the sign-in answers (decision 029).
  return { id: await prospectOfVisit(t, res.body.data.id) }
}

const followUpRows = (prospectId: number) =>
  t.db
    .selectFrom('outbox')
    .selectAll()
    .where('jobName', '=', 'followUp')
    .where(sql<string>`payload->>'prospectId'`, '=', String(prospectId))
    .execute()

/** Two days have passed: the follow-up's outbox row comes due now; waits until its job ran. */
async function twoDaysLater(prospectId: number) {
  const rows = await followUpRows(prospectId)
  expect(rows).toHaveLength(1)
  await t.db
    .updateTable('outbox')
    .set({ runAt: new Date() })
    .where('id', '=', rows[0]?.id as number)
    .execute()
  await until(
    async () =>
      (
        await t.db
          .selectFrom('outbox')
          .select('doneAt')
          .where('id', '=', rows[0]?.id as number)
          .executeTakeFirst()
      )?.doneAt,
    'the follow-up job',
  )
}

const header = (m: ReceivedMail, name: string) =>
  m.raw.headerLines
    .find((h) => h.key === name)
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ')

const to = (email: string) => (m: ReceivedMail) => m.to.some((a) => a.toLowerCase() === email.toLowerCase())
const isFollowUp = (m: ReceivedMail) => m.subject.startsWith('Still thinking about')

async function ownOpenHouse(agent: Agent, overrides: Record<string, unknown> = {}) {
  return scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself', listingURL: LISTING, ...overrides })
}

describe('guest follow-up and one-click unsubscribe', () => {
  it('sends the follow-up once to a consenting guest two days after the sign-in, from the agent, with the listing link', async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const oh = await ownOpenHouse(olive)
    const email = `gina-${randomUUID().slice(0, 8)}@example.com`
    const signedInAt = Date.now()
    const guest = await guestSignIn(oh.id, email)

    const [thanks] = await smtp.waitFor(to(email))
    expect(thanks?.subject).toMatch(/^Thank you for visiting/)
    const rows = await followUpRows(guest.id)
    expect(rows).toHaveLength(1)
    const due = new Date(rows[0]?.runAt as Date).getTime()
    expect(due - signedInAt).toBeGreaterThanOrEqual(TWO_DAYS - 1000)
    expect(due - signedInAt).toBeLessThan(TWO_DAYS + 60_000)

    await twoDaysLater(guest.id)
    const [followUp] = await smtp.waitFor((m) => to(email)(m) && isFollowUp(m))
    if (!followUp) throw new Error('no follow-up')
    expect(followUp.text).toContain(LISTING)
    expect(followUp.raw.from?.value[0]?.name).toBe(`Olive ${olive.agent.reAgentLastName}`)
    expect(followUp.raw.replyTo?.value[0]?.address).toBe(olive.agent.reAgentEmailId)
    expect(header(followUp, 'list-unsubscribe')).toMatch(/^<http[^>]+\/api\/public\/unsubscribe\/[\w-]+>$/)
    expect(header(followUp, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(followUp.text).toMatch(/Unsubscribe: http\S+\/api\/public\/unsubscribe\//)

    // The job again (a retry, a second relay): the visit's follow-up was taken; nothing more goes out.
    expect(await t.app.deps.consent.sendFollowUp({ openHouseId: oh.id, prospectId: guest.id })).toBe(
      'skipped',
    )
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter((m) => to(email)(m) && isFollowUp(m))).toHaveLength(1)
  })

  it('sends no follow-up when the open house has it turned off', async () => {
    const olive = await makePlannedAgent(t.db)
    const oh = await ownOpenHouse(olive, { followUpMailFlag: 'false' })
    const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: olive.token })
    expect(details.body.data?.followUpMailFlag ?? false).toBe(false)
    const email = `off-${randomUUID().slice(0, 8)}@example.com`
    const guest = await guestSignIn(oh.id, email)
    await smtp.waitFor(to(email))
    expect(await followUpRows(guest.id)).toHaveLength(0)
    // Turned off after the sign-in, it still holds when the follow-up comes due.
    const later = await ownOpenHouse(olive)
    const other = await guestSignIn(later.id, `late-${email}`)
    // The worker welcomed the guest (decision 053): the follow-up is queued, then the flag goes off.
    await smtp.waitFor(to(`late-${email}`))
    expect(await followUpRows(other.id)).toHaveLength(1)
    await t.db.updateTable('openHouse').set({ followUpMailFlag: false }).where('id', '=', later.id).execute()
    expect(await t.app.deps.consent.sendFollowUp({ openHouseId: later.id, prospectId: other.id })).toBe(
      'skipped',
    )
  })

  it('sends neither mail to a guest who did not agree to email', async () => {
    const olive = await makePlannedAgent(t.db)
    const oh = await ownOpenHouse(olive)
    const email = `no-${randomUUID().slice(0, 8)}@example.com`
    const guest = await guestSignIn(oh.id, email, false)
    expect(await followUpRows(guest.id)).toHaveLength(0)
    expect(await t.app.deps.consent.sendFollowUp({ openHouseId: oh.id, prospectId: guest.id })).toBe(
      'skipped',
    )
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter(to(email))).toHaveLength(0)
  })

  it("An unsubscribe POST with the header's URL stops the follow-up mail and emits consent.changed", async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const hook = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
      token: olive.token,
      body: { url: `${hooks.url}/olive`, events: ['consent.changed'] },
    })
    expect(hook.status).toBe(201)
    const oh = await ownOpenHouse(olive)
    const email = `Unsub-${randomUUID().slice(0, 8)}@Example.com`
    const guest = await guestSignIn(oh.id, email)
    const [thanks] = await smtp.waitFor(to(email))
    if (!thanks) throw new Error('no thank-you')
    expect(header(thanks, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const url = /^<(.+)>$/.exec(header(thanks, 'list-unsubscribe') ?? '')?.[1]
    if (!url) throw new Error('no List-Unsubscribe')

    // Opening the link (as a mail scanner does) only shows the page that asks to confirm.
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<button type="submit">Unsubscribe</button>')
    expect(await t.app.deps.consent.optedOut(olive.agent.id, email)).toBe(false)

    // The mail client's one-click POST (RFC 8058).
    const post = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
    expect((await post()).status).toBe(200)
    expect((await post()).status).toBe(200)

    await twoDaysLater(guest.id)
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter((m) => to(email)(m) && isFollowUp(m))).toHaveLength(0)

    const consentEvents = () =>
      hooks.received.map((r) => JSON.parse(r.body)).filter((e) => e.type === 'consent.changed')
    await until(() => consentEvents().length > 0, 'consent.changed')
    await new Promise((r) => setTimeout(r, 500))
    const changed = consentEvents()
    expect(changed).toHaveLength(1)
    expect(changed[0].data.prospect.id).toBe(guest.id)
    expect(changed[0].data.consent).toMatchObject({ prospectId: guest.id, emailConsent: false })

    // The ledger, as the prospect detail shows it: the opt-in at the door, then the one-click opt-out.
    const history = await t.call('GET', `/prospectmgmt/getProspectConsents/${guest.id}`, {
      token: olive.token,
    })
    expect(history.status).toBe(200)
    expect(history.body.data.map((e: { kind: string; source: string }) => [e.kind, e.source])).toEqual([
      ['email_opt_out', 'one_click'],
      ['email_opt_in', 'guest_sign_in'],
    ])

    // No later mail of any kind to the address for this agent: a mail queued for it is suppressed when
    // it would go out, and a new visit with consent sends nothing.
    const queued = await inTransaction(t.db, (trx) =>
      queueMail(trx, t.app.deps.outbox, {
        to: email.toLowerCase(),
        subject: 'Anything else',
        text: 'x',
        html: '<p>x</p>',
        forAgentId: olive.agent.id,
      }),
    )
    await until(
      async () =>
        (await t.db.selectFrom('mail').select('status').where('id', '=', queued).executeTakeFirst())
          ?.status === 'suppressed',
      'the suppressed mail',
    )
    const again = await ownOpenHouse(olive)
    await guestSignIn(again.id, email)
    // The worker records the new consent (decision 053), and sends nothing for it.
    const consents = () =>
      t.call('GET', `/prospectmgmt/getProspectConsents/${guest.id}`, { token: olive.token })
    await until(async () => (await consents()).body.data.length === 3, 'the second opt-in in the ledger')
    await new Promise((r) => setTimeout(r, 800))
    expect(smtp.received.filter(to(email))).toHaveLength(1)
    const after = await consents()
    expect(after.body.data[0]).toMatchObject({ kind: 'email_opt_in', source: 'guest_sign_in' })
    expect(after.body.data[0].detail).toContain('an earlier unsubscribe stands, no mail is sent')
  })

  it('sends the thank-you from the agent, answered to the agent, as a whole HTML page with its language', async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const oh = await ownOpenHouse(olive)
    const email = `thanks-${randomUUID().slice(0, 8)}@example.com`
    await guestSignIn(oh.id, email)
    const [thanks] = await smtp.waitFor(to(email))
    if (!thanks) throw new Error('no thank-you')
    // A guest's reply reaches the agent it met, not our no-reply sender.
    expect(thanks.raw.replyTo?.value[0]?.address).toBe(olive.agent.reAgentEmailId)
    expect(thanks.raw.from?.value[0]?.name).toBe(`Olive ${olive.agent.reAgentLastName}`)
    expect(thanks.html).toMatch(/^<!doctype html><html lang="en"><head><meta charset="utf-8">/)
    expect(thanks.html).toContain('<title>Thank you for visiting')
    // A random Message-ID, not one made of the row's number that another database gives out too.
    expect(thanks.messageId).toMatch(/^<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@/)
  })

  it("takes the one-click POST as multipart/form-data too (RFC 8058's own example), on a branded page", async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const oh = await ownOpenHouse(olive)
    const email = `multipart-${randomUUID().slice(0, 8)}@example.com`
    await guestSignIn(oh.id, email)
    const [thanks] = await smtp.waitFor(to(email))
    const url = /^<(.+)>$/.exec((thanks && header(thanks, 'list-unsubscribe')) ?? '')?.[1]
    if (!url) throw new Error('no List-Unsubscribe')
    const page = await (await fetch(url)).text()
    expect(page).toMatch(/<header><svg[^>]*>.*<\/svg><span>Porchlight<\/span><\/header>/s)

    const form = new FormData()
    form.set('List-Unsubscribe', 'One-Click')
    const post = await fetch(url, { method: 'POST', body: form })
    expect(post.status).toBe(200)
    expect(await t.app.deps.consent.optedOut(olive.agent.id, email)).toBe(true)

    // A form that cannot be read is the caller's error, in the contract's shape.
    const broken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'not a form',
    })
    expect(broken.status).toBe(400)
    expect((await broken.json()).error.code).toBe('BAD_REQUEST')
  })

  it('records an opt-out the guest asked the agent for, which stops the follow-up the same way', async () => {
    const olive = await makePlannedAgent(t.db)
    const oh = await ownOpenHouse(olive)
    const email = `phone-${randomUUID().slice(0, 8)}@example.com`
    const guest = await guestSignIn(oh.id, email)
    await smtp.waitFor(to(email))

    const other = await makePlannedAgent(t.db)
    const refused = await t.call('POST', `/prospectmgmt/optOutProspectEmail/${guest.id}`, {
      token: other.token,
    })
    expect(refused.status).toBe(404)
    const res = await t.call('POST', `/prospectmgmt/optOutProspectEmail/${guest.id}`, { token: olive.token })
    expect(res.status).toBe(200)
    expect(res.body.data.map((e: { kind: string; source: string }) => [e.kind, e.source])).toEqual([
      ['email_opt_out', 'agent'],
      ['email_opt_in', 'guest_sign_in'],
    ])
    const details = await t.call('GET', `/prospectmgmt/getProspectDetails/${guest.id}`, {
      token: olive.token,
    })
    expect(details.body.data.emailConsent).toBe(false)
    expect(await t.app.deps.consent.sendFollowUp({ openHouseId: oh.id, prospectId: guest.id })).toBe(
      'skipped',
    )
  })

  it('answers 404 to an unknown unsubscribe token and records nothing', async () => {
    const res = await fetch(`${t.url}/api/public/unsubscribe/${'x'.repeat(32)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(res.status).toBe(404)
    const api = await fetch(`${t.url}/api/public/unsubscribe/${'x'.repeat(32)}`)
    expect(api.status).toBe(404)
    expect((await api.json()).error.code).toBe('NOT_FOUND')
    // A person's browser gets a page that says so.
    const page = await fetch(`${t.url}/api/public/unsubscribe/${'x'.repeat(32)}`, {
      headers: { accept: 'text/html' },
    })
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('This link does not work')
  })
})
