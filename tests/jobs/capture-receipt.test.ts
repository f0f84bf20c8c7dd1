import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
  t.startWorker()
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'

/** A visitor signs in at the door from a device of its own kind, as the guest page does. */
async function signIn(
  openHouseId: number,
  who: string,
  userAgent: string,
  extra: Record<string, string> = {},
) {
  const res = await fetch(`${t.url}/api/public/saveProspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({
      prospectFirstName: who,
      prospectLastName: 'Visitor',
      prospectEmailId: `${who.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
      ...extra,
    }),
  })
  expect(res.status).toBe(201)
}

/** As if the open house ended an hour ago and its end-of-open-house jobs came due. */
async function endIt(openHouseId: number) {
  const ended = new Date(Date.now() - 3_600_000)
  await t.db
    .updateTable('openHouse')
    .set({ startsAt: new Date(ended.getTime() - 7_200_000), endsAt: ended })
    .where('id', '=', openHouseId)
    .execute()
  const jobs = await t.db
    .selectFrom('outbox')
    .select(['id', 'payload'])
    .where('queue', '=', 'receipts')
    .execute()
  const mine = jobs.filter((j) => (j.payload as { openHouseId: number }).openHouseId === openHouseId)
  await t.db
    .updateTable('outbox')
    .set({ runAt: ended })
    .where(
      'id',
      'in',
      mine.map((j) => j.id),
    )
    .execute()
}

const receiptsTo = (email: string) => (m: { to: string[]; subject: string }) =>
  m.to.includes(email) && m.subject.startsWith('Sign-ins at ')

describe('the capture receipt when an open house ends', () => {
  it('tells the host how many signed in, where and how many offline, with the CSV; the listing agent gets the consenting guests', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lena', lastName: 'Listing' })
    const host = await makePlannedAgent(t.db, { firstName: 'Hugo', lastName: 'Host' })
    const oh = await scheduleHostedBy(t, listing, host)

    await signIn(oh.id, 'Pia', IPHONE, { listingAgentConsent: 'true' })
    await signIn(oh.id, 'Tad', IPAD)
    await signIn(oh.id, 'Kim', IPAD, { kiosk: 'true', savedOffline: 'true' })
    // Not over yet: an early job sends nothing.
    expect(await t.app.deps.reports.sendCaptureReceipt(oh.id)).toBe('skipped')

    await endIt(oh.id)
    const [toHost] = await smtp.waitFor(receiptsTo(host.agent.reAgentEmailId), 1, 15_000)
    expect(toHost?.subject).toMatch(/: 3$/)
    expect(toHost?.text).toContain('3 guests signed in')
    expect(toHost?.text).toContain('1 on their own phone')
    expect(toHost?.text).toContain('1 on a tablet')
    expect(toHost?.text).toContain('1 at your kiosk')
    expect(toHost?.text).toContain('1 signed in with no connection')
    const hostCsv = toHost?.raw.attachments.find((a) => a.filename === 'attendees.csv')?.content.toString()
    for (const name of ['Pia', 'Tad', 'Kim']) expect(hostCsv).toContain(name)

    const [toListing] = await smtp.waitFor(receiptsTo(listing.agent.reAgentEmailId), 1, 15_000)
    expect(toListing?.text).toContain('The 1 guest who agreed to share their details with you is attached')
    const listingCsv = toListing?.raw.attachments
      .find((a) => a.filename === 'attendees.csv')
      ?.content.toString()
    expect(listingCsv).toContain('Pia')
    expect(listingCsv).not.toContain('Tad')

    // Once: another run (a repeat, or a job for an end that moved) sends nothing more.
    expect(await t.app.deps.reports.sendCaptureReceipt(oh.id)).toBe('skipped')
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter(receiptsTo(host.agent.reAgentEmailId))).toHaveLength(1)
  })

  it('sends nothing for a canceled open house', async () => {
    const agent = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    await signIn(oh.id, 'Una', IPHONE)
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: agent.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)
    await endIt(oh.id)
    expect(await t.app.deps.reports.sendCaptureReceipt(oh.id)).toBe('skipped')
    await new Promise((r) => setTimeout(r, 1000))
    expect(smtp.received.filter(receiptsTo(agent.agent.reAgentEmailId))).toEqual([])
  })
})
