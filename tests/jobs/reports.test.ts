import { randomUUID } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { collect, connectSocket } from '../support/socket.ts'

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

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

/** A published open house hosted by another agent, with two guests who signed in and one feedback. */
async function hostedWithGuests() {
  const listing = await makePlannedAgent(t.db)
  const host = await makePlannedAgent(t.db)
  const oh = await scheduleOpenHouse(t, listing)
  await publish(t, listing, oh.id)
  await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  const guests = [
    { first: 'Jordan', last: 'Rivers', realtor: 'false' },
    { first: 'Casey', last: 'Lane', realtor: 'true' },
  ]
  const ids: number[] = []
  const tokens: string[] = []
  for (const g of guests) {
    const res = await t.call('POST', '/public/saveProspect', {
      body: {
        prospectFirstName: g.first,
        prospectLastName: g.last,
        prospectEmailId: `${g.first.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`,
        prospectPhoneNumber: '404 555 0142',
        workingWithREAgentFlag: g.realtor,
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
      },
    })
    ids.push(res.body.data.id)
    tokens.push(res.body.data.guestToken)
  }
  await t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId: oh.id,
      prospectId: ids[0],
      guestToken: tokens[0],
      kitchen: 5,
      curbAppeal: 4,
      feedbackText: 'Lovely kitchen',
    },
  })
  return { listing, host, oh }
}

const mailsTo = (a: Agent) => (m: { to: string[] }) => m.to.includes(a.user.porchlightUserEmailId)

describe('reports by mail', () => {
  it('mails the listing agent the hosting report with the attendees as CSV', async () => {
    const { listing, host, oh } = await hostedWithGuests()
    const res = await t.call('POST', `/openhousemgmt/sendOpenHouseHostingReport/${oh.id}`, {
      token: host.token,
    })
    expect(res.status).toBe(202)
    expect(res.body.data).toEqual({ queued: true, message: messages.hostingReportSent })
    const [mail] = await smtp.waitFor(mailsTo(listing))
    expect(mail?.subject).toMatch(/hosting report/i)
    expect(mail?.text).toContain('Attendees: 2. Leads without a realtor: 1.')
    expect(mail?.text).toContain('Kitchen: 5/5')
    expect(mail?.text).toContain('Lovely kitchen')
    const csv = mail?.raw.attachments.find((a) => a.filename === 'attendees.csv')
    const rows = parse(csv?.content.toString('utf8') ?? '', { columns: true, bom: true }) as Array<
      Record<string, string>
    >
    // The export's human headers, records ended by CRLF (RFC 4180).
    expect(rows.map((r) => `${r['First Name']} ${r['Last Name']}`).sort()).toEqual([
      'Casey Lane',
      'Jordan Rivers',
    ])
    expect(rows.find((r) => r['First Name'] === 'Jordan')?.['Working With an Agent']).toBe('No')
    expect(csv?.content.toString('utf8')).toMatch(
      /^\uFEFFSigned In At,First Name,Last Name,Email,Phone,[^\n]*\r\n/,
    )
  })

  it('lets only the host send it', async () => {
    const { listing, oh } = await hostedWithGuests()
    const res = await t.call('POST', `/openhousemgmt/sendOpenHouseHostingReport/${oh.id}`, {
      token: listing.token,
    })
    expect(res.status).toBe(403)
  })

  it('mails and tells the host live when the listing agent requests the report', async () => {
    const { listing, host, oh } = await hostedWithGuests()
    const socket = await connectSocket(t.url, { token: host.token })
    const heard = collect(socket, 'report.requested')
    try {
      const res = await t.call('POST', `/openhousemgmt/requestOpenHouseHostingReport/${oh.id}`, {
        token: listing.token,
      })
      expect(res.body.data.message).toBe(messages.hostingReportRequested)
      const [mail] = await smtp.waitFor(mailsTo(host))
      expect(mail?.subject).toMatch(/please send the hosting report/i)
      await expect.poll(() => heard.length).toBe(1)
      expect(heard[0]?.data).toEqual({ openHouseId: oh.id, requestedByReAgentId: listing.agent.id })
    } finally {
      socket.close()
    }
    expect(
      (await t.call('POST', `/openhousemgmt/requestOpenHouseHostingReport/${oh.id}`, { token: host.token }))
        .status,
    ).toBe(403)
  })

  it('mails the host the attendee report with the SPEC success text', async () => {
    const { host, oh } = await hostedWithGuests()
    const res = await t.call('POST', `/openhousemgmt/sendOpenHouseAttendeeReport/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect(res.body.data.message).toBe(messages.attendeeReportSent)
    const [mail] = await smtp.waitFor((m) => mailsTo(host)(m) && /attendee report/i.test(m.subject))
    const csv = mail?.raw.attachments[0]?.content.toString('utf8') ?? ''
    expect(parse(csv, { columns: true, bom: true })).toHaveLength(2)
  })
})
