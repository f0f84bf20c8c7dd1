// The seller kept informed (issue 34, decision 051), against a real SMTP sink: the listing agent puts
// the seller's email on a seller report link; when the open house ends (the test moves its end and the
// job's due time in PostgreSQL) the seller gets exactly one mail, anonymised as the page is, with the
// live link and RFC 8058's one-click unsubscribe.

import { randomUUID } from 'node:crypto'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { until } from '../support/webhook-receiver.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

const guests = [
  { prospectFirstName: 'Zephyrine', prospectLastName: 'Quillfeather', prospectPhoneNumber: '678 555 0142' },
  { prospectFirstName: 'Bartholomew', prospectLastName: 'Okonkwo', prospectPhoneNumber: '404 555 0199' },
]

async function signIn(openHouseId: number, g: (typeof guests)[number], extra: Record<string, unknown> = {}) {
  const email = `${g.prospectFirstName.toLowerCase()}-${randomUUID().slice(0, 6)}@example.org`
  const res = await t.call('POST', '/public/saveProspect', {
    body: { ...g, prospectEmailId: email, openHouseId, clientRequestId: randomUUID(), ...extra },
  })
  if (res.status !== 201) throw new Error(`sign-in: ${JSON.stringify(res.body)}`)
  return { ...(res.body.data as { id: number; guestToken: string }), email }
}

async function giveFeedback(openHouseId: number, guest: { id: number; guestToken: string }, text: string) {
  const ratings = Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, '']))
  const res = await t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId,
      prospectId: guest.id,
      guestToken: guest.guestToken,
      feedbackText: text,
      ...ratings,
      kitchen: 5,
      curbAppeal: 4,
    },
  })
  if (res.status !== 201) throw new Error(`feedback: ${JSON.stringify(res.body)}`)
}

const sellerJobs = (openHouseId: number) =>
  t.db
    .selectFrom('outbox')
    .select(['id', 'doneAt'])
    .where('queue', '=', 'receipts')
    .where('jobName', '=', 'seller')
    .where(sql<string>`payload->>'openHouseId'`, '=', String(openHouseId))
    .execute()

/** The open house ended an hour ago: its end and its seller jobs' due time are moved back; waits for them. */
async function endNow(openHouseId: number) {
  const ended = new Date(Date.now() - 3_600_000)
  await t.db
    .updateTable('openHouse')
    .set({ startsAt: new Date(ended.getTime() - 7_200_000), endsAt: ended })
    .where('id', '=', openHouseId)
    .execute()
  const jobs = await sellerJobs(openHouseId)
  expect(jobs.length).toBeGreaterThan(0)
  await t.db
    .updateTable('outbox')
    .set({ runAt: ended })
    .where(
      'id',
      'in',
      jobs.map((j) => j.id),
    )
    .execute()
  await until(async () => (await sellerJobs(openHouseId)).every((j) => j.doneAt !== null), 'the seller job')
}

const header = (m: ReceivedMail, name: string) =>
  m.raw.headerLines
    .find((h) => h.key === name)
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ')
const to = (email: string) => (m: ReceivedMail) => m.to.some((a) => a.toLowerCase() === email.toLowerCase())
const settle = () => new Promise((r) => setTimeout(r, 600))

const createLink = (agent: Agent, openHouseId: number, body?: unknown) =>
  t.call('POST', `/openhousemgmt/createSellerReportLink/${openHouseId}`, { token: agent.token, body })
const setEmail = (agent: Agent, openHouseId: number, sellerEmail: string | null) =>
  t.call('POST', `/openhousemgmt/setSellerReportEmail/${openHouseId}`, {
    token: agent.token,
    body: { sellerEmail },
  })
const status = (agent: Agent, openHouseId: number) =>
  t.call('GET', `/openhousemgmt/getSellerReportLink/${openHouseId}`, { token: agent.token })

describe('the seller kept informed', () => {
  it('mails the seller once when the open house ends: counts, feedback, the live link, no guest, any alphabet', async () => {
    // A name in another alphabet, and one with Vietnamese marks: both read back in the mail.
    const mei = await makePlannedAgent(t.db, { firstName: '美玲', lastName: 'Đặng' })
    const oh = await scheduleOpenHouse(t, mei, { publishLevel: 'Hosting Myself' })
    const seller = `seller-${randomUUID().slice(0, 8)}@example.com`
    const link = await createLink(mei, oh.id, { sellerEmail: seller })
    expect(link.status).toBe(201)
    const url = link.body.data.url as string

    const zephyrine = await signIn(oh.id, guests[0] as (typeof guests)[number], {
      workingWithREAgentFlag: false,
    })
    const bart = await signIn(oh.id, guests[1] as (typeof guests)[number], { workingWithREAgentFlag: true })
    await giveFeedback(
      oh.id,
      zephyrine,
      `Lovely kitchen. Zephyrine here, call me at 678 555 0142 or ${zephyrine.email}`,
    )

    // Before the end: nothing.
    await settle()
    expect(smtp.received.filter(to(seller))).toHaveLength(0)

    await endNow(oh.id)
    const [mail] = await smtp.waitFor(to(seller))
    if (!mail) throw new Error('no seller mail')
    expect(mail.subject).toMatch(/: 2 visitors$/)
    expect(mail.text).toContain('Visitors: 2 (1 without an agent, 1 with an agent).')
    expect(mail.text).toContain('Feedback received: 1')
    expect(mail.text).toMatch(/Average ratings — .*Kitchen: 5\/5/)
    expect(mail.text).toContain('“Lovely kitchen. [name] here, call me at [phone] or [email]”')
    expect(mail.text).toContain(url)
    expect(mail.text).toContain('美玲 Đặng')
    expect(mail.html).toContain('美玲 Đặng')
    expect(mail.raw.from?.value[0]?.name).toBe('美玲 Đặng')
    expect(mail.raw.replyTo?.value[0]?.address).toBe(mei.agent.reAgentEmailId)
    // No visitor: not a name, an address or a phone, anywhere in the message as it arrived.
    const decoded = `${mail.text}\n${mail.html}\n${mail.subject}`
    for (const g of [zephyrine, bart]) expect(decoded).not.toContain(g.email)
    for (const g of guests) {
      expect(decoded).not.toContain(g.prospectFirstName)
      expect(decoded).not.toContain(g.prospectLastName)
      expect(decoded.replace(/\D/g, ' ')).not.toContain(g.prospectPhoneNumber.replace(/\D/g, ''))
    }
    // RFC 8058: the one-click headers, and the same link visible in the mail.
    const unsubscribe = /^<(.+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1]
    expect(unsubscribe).toMatch(/\/api\/public\/unsubscribeSeller\/[\w-]+$/)
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(mail.text).toContain(`Unsubscribe: ${unsubscribe}`)

    // The live link in the mail opens the report; the stored mail keeps it sealed, never in its bodies.
    const token = url.split('/seller/')[1] ?? ''
    const stored = await t.db
      .selectFrom('mail')
      .selectAll()
      .where('toAddress', '=', seller)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(stored.textBody).toContain('keeps itself up to date until')
    expect(stored.privateLink).toMatch(/^sk1\.[\da-f]{8}\./)
    const page = await t.call('GET', `/public/getSellerReport/${token}`)
    expect(page.status).toBe(200)
    expect(page.body.data.visitors.count).toBe(2)

    // Never twice: the job again, and a second end job, write nothing more.
    expect(await t.app.deps.sellerReports.sendSellerMails(oh.id)).toBe(0)
    await endNow(oh.id)
    await settle()
    expect(smtp.received.filter(to(seller))).toHaveLength(1)
    const after = await status(mei, oh.id)
    expect(after.body.data.seller).toMatchObject({ email: seller, unsubscribed: false })
    expect(after.body.data.seller.mailedAt).not.toBeNull()
  })

  it('stops with the one-click POST, urlencoded or multipart; an unsubscribed seller gets no more mail for that link', async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const oh = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const seller = `stop-${randomUUID().slice(0, 8)}@example.com`
    expect((await createLink(olive, oh.id, { sellerEmail: seller })).status).toBe(201)
    await endNow(oh.id)
    const [mail] = await smtp.waitFor(to(seller))
    const url = /^<(.+)>$/.exec((mail && header(mail, 'list-unsubscribe')) ?? '')?.[1]
    if (!url) throw new Error('no List-Unsubscribe')

    // Opening it (a mail scanner) only asks to confirm.
    const page = await fetch(url, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<button type="submit">Unsubscribe</button>')
    expect(html).toContain('no more mail about this open house')
    expect((await status(olive, oh.id)).body.data.seller.unsubscribed).toBe(false)

    const post = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(post.status).toBe(200)
    expect((await status(olive, oh.id)).body.data.seller.unsubscribed).toBe(true)
    // The same address set again keeps the seller's word.
    expect((await setEmail(olive, oh.id, seller.toUpperCase())).body.data.seller.unsubscribed).toBe(true)

    // Multipart (RFC 8058's own example) is read too; a repeat answers the same.
    const second = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    expect((await createLink(olive, second.id, { sellerEmail: seller })).status).toBe(201)
    const form = new FormData()
    form.set('List-Unsubscribe', 'One-Click')
    expect((await fetch(url, { method: 'POST', body: form })).status).toBe(200)
    // The first link's unsubscribe is that link's: the second link's seller still gets its mail.
    await endNow(second.id)
    await smtp.waitFor((m) => to(seller)(m) && m !== mail)
    const mails = smtp.received.filter(to(seller))
    expect(mails).toHaveLength(2)
    const secondUrl = /^<(.+)>$/.exec(header(mails[1] as ReceivedMail, 'list-unsubscribe') ?? '')?.[1]
    if (!secondUrl) throw new Error('no List-Unsubscribe')
    expect(secondUrl).not.toBe(url)

    // A seller unsubscribed before the end gets nothing: a third open house's link, unsubscribed (as its
    // seller would from the page) before the open house ends.
    const third = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const other = `third-${randomUUID().slice(0, 8)}@example.com`
    expect((await createLink(olive, third.id, { sellerEmail: other })).status).toBe(201)
    await t.db
      .updateTable('sellerReportLink')
      .set({ sellerUnsubscribedAt: new Date() })
      .where('openHouseId', '=', third.id)
      .execute()
    await endNow(third.id)
    await settle()
    expect(smtp.received.filter(to(other))).toHaveLength(0)

    // A token never given: 404, in the contract's shape.
    const unknown = await fetch(`${t.url}/api/public/unsubscribeSeller/${'x'.repeat(32)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe('NOT_FOUND')
  })

  it('sends nothing for a canceled open house, a removed email or a revoked link', async () => {
    const olive = await makePlannedAgent(t.db)
    const canceled = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const a = `canceled-${randomUUID().slice(0, 8)}@example.com`
    expect((await createLink(olive, canceled.id, { sellerEmail: a })).status).toBe(201)
    const cancel = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: olive.token,
      body: { openHouseId: canceled.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(cancel.status).toBe(200)
    await endNow(canceled.id)

    const removed = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const b = `removed-${randomUUID().slice(0, 8)}@example.com`
    expect((await createLink(olive, removed.id)).status).toBe(201)
    expect((await setEmail(olive, removed.id, b)).body.data.seller.email).toBe(b)
    const cleared = await setEmail(olive, removed.id, null)
    expect(cleared.status).toBe(200)
    expect(cleared.body.data.seller.email).toBeNull()
    await endNow(removed.id)

    const revoked = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    const c = `revoked-${randomUUID().slice(0, 8)}@example.com`
    expect((await createLink(olive, revoked.id, { sellerEmail: c })).status).toBe(201)
    await t.call('DELETE', `/openhousemgmt/revokeSellerReportLink/${revoked.id}`, { token: olive.token })
    await endNow(revoked.id)

    await settle()
    for (const email of [a, b, c]) expect(smtp.received.filter(to(email))).toHaveLength(0)
  })

  it('takes a valid email from the listing side only (the scheduler is refused in the authorization matrix)', async () => {
    const olive = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, olive, { publishLevel: 'Hosting Myself' })
    expect((await createLink(olive, oh.id)).status).toBe(201)
    const bad = await setEmail(olive, oh.id, 'not an email')
    expect(bad.status).toBe(422)
    const stranger = await makePlannedAgent(t.db)
    expect((await setEmail(stranger, oh.id, 'x@example.com')).status).toBe(404)
    expect((await createLink(stranger, oh.id, { sellerEmail: 'x@example.com' })).status).toBe(404)
  })
})
