// Any name, everywhere (issue 33): guests with names in Cyrillic, CJK, Vietnamese, Polish, Arabic (right
// to left), emoji and combining marks, quotes, commas and semicolons sign in, and each name reads back
// exactly — through parsers written by others, not by string matching — in the host's attendee list,
// the prospect API, the vCard (ical.js, Mozilla's RFC 6350 parser), the CSV export (csv-parse), the
// thank-you mail (mailparser), the prospect.created webhook and the Follow Up Boss event (JSON, as Follow
// Up Boss reads it). The agent's own name, drawn the same way, reads back from the open house's .ics
// (ical.js), the mail's From and every agent name of the webhook. No answer is a 5xx.

import { randomUUID } from 'node:crypto'
import { plainFirstName } from '@porchlight/server/src/mail/templates.ts'
import { parse as parseDisposition } from 'content-disposition'
import { parse as parseCsv } from 'csv-parse/sync'
import fc from 'fast-check'
import ICAL from 'ical.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { type Receiver, startReceiver, until } from '../support/webhook-receiver.ts'

/** Guests per run, and runs: bounded, so the file takes well under a minute. */
const GUESTS = 25
const RUNS = 2
/** Sign-ins and reads at once. */
const BATCH = 5

let t: TestApp
let smtp: SmtpSink
let hooks: Receiver
let fub: Receiver

beforeAll(async () => {
  smtp = await startSmtpSink()
  hooks = await startReceiver()
  fub = await startReceiver()
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FUB_API_URL: fub.url },
    configure: (c) => {
      c.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
  await hooks?.close()
  await fub?.close()
})

const codePoints = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((c) => String.fromCodePoint(c))

/** One piece of a name: a letter of some script, an emoji, a letter with combining marks, punctuation. */
const piece = fc.oneof(
  codePoints(0x0410, 0x044f), // Cyrillic
  codePoints(0x4e00, 0x9fa5), // CJK
  codePoints(0x0621, 0x064a), // Arabic, right to left
  fc.constantFrom('Nguyễn', 'Thị', 'ạ', 'ễ', 'ự', 'ơ', 'Đ'), // Vietnamese
  fc.constantFrom('Ł', 'ukasz', 'Wó', 'jcik', 'ą', 'ę', 'ś', 'ż', 'ń'), // Polish
  fc.constantFrom('😀', '🏠', '👩‍👩‍👧', '👍🏽', '🇺🇸'), // emoji, with joiners, modifiers and flags
  fc.constantFrom('e\u0301', 'a\u0308', 'n\u0303', 'o\u0323\u0302'), // combining marks
  fc.constantFrom('"', "'", '’', ',', ';', ' ', '\\'), // quotes, commas, semicolons
  fc.constantFrom('Ann', 'O', 'Mc', 'li'),
)

/** A name as a person types it: trimmed, at most 40 UTF-16 units, not starting like a formula. */
const name = fc
  .array(piece, { minLength: 1, maxLength: 8 })
  .map((pieces) => pieces.join('').trim().slice(0, 40).trim())
  .filter((n) => n.length > 0 && !/^[=+\-@]/.test(n) && !/[\uD800-\uDBFF]$/.test(n))

const person = fc.record({ first: name, last: name })

/** Every answer of the app is checked here: whatever the name, never a server error. */
async function get(token: string, path: string) {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } })
  expect(res.status, `${path} answered ${res.status}`).toBeLessThan(500)
  return res
}

function vcardOf(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text) as never)
}

/**
 * N's components as a reader gets them. ical.js splits N at `\\;` (an escaped backslash ending a
 * component, then the separator) as if the semicolon were escaped: where a component ends in a
 * backslash, the line is compared with RFC 6350's escaping instead (vcard4, the other maintained
 * reader, misreads quotes and a bare semicolon in FN, so it is no better judge).
 */
function nameOf(card: ICAL.Component, text: string, g: { first: string; last: string }) {
  if (!g.first.endsWith('\\') && !g.last.endsWith('\\')) return card.getFirstPropertyValue('n')
  const escaped = (v: string) => v.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;')
  const line = text
    .replace(/\r\n /g, '')
    .split('\r\n')
    .find((l) => l.startsWith('N:'))
  return line === `N:${escaped(g.last)};${escaped(g.first)};;;` ? [g.last, g.first, '', '', ''] : line
}

/**
 * The ORGANIZER's CN as a reader gets it. RFC 5545 gives parameter values no backslash escapes (a
 * quoted-string holds any character but a quote and controls; RFC 6868's caret writes those), but
 * ical.js reads `\;`, `\,` and `\n` in them as text values' escapes: where the name has a backslash,
 * the line is compared with RFC 5545 and RFC 6868's writing instead.
 */
function organizerNameOf(event: ICAL.Component | null | undefined, text: string, name: string) {
  const read = event?.getFirstProperty('organizer')?.getParameter('cn')
  if (!name.includes('\\')) return read
  const written = name.replace(/\^/g, '^^').replace(/"/g, "^'")
  const line = text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .find((l) => l.startsWith('ORGANIZER'))
  return line?.startsWith(`ORGANIZER;CN="${written}":`) ? name : line
}

/** The file name a download offers: RFC 6266's filename* where given (the parser decodes it), else filename. */
function offeredName(header: string | null): string | undefined {
  return parseDisposition(header ?? '').parameters.filename
}

async function inBatches<T, R>(items: T[], fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += BATCH) {
    out.push(...(await Promise.all(items.slice(i, i + BATCH).map((item, j) => fn(item, i + j)))))
  }
  return out
}

it('keeps every name exact in the lists, the vCard, the CSV, the .ics, the thank-you mail, the webhook and Follow Up Boss', async () => {
  let run = 0
  await fc.assert(
    fc.asyncProperty(
      person,
      fc.array(person, { minLength: GUESTS, maxLength: GUESTS }),
      async (host, guests) => {
        run++
        const agent = await makePlannedAgent(t.db, { firstName: host.first, lastName: host.last })
        const hostName = `${host.first} ${host.last}`
        const endpoint = `/names-${run}-${randomUUID().slice(0, 8)}`
        const saved = await t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
          token: agent.token,
          body: { url: `${hooks.url}${endpoint}`, events: ['prospect.created'] },
        })
        expect(saved.status).toBe(201)
        const fubKey = `fub_${randomUUID().replaceAll('-', '')}`
        const connected = await t.call('POST', '/webhookmgmt/saveFubConnector', {
          token: agent.token,
          body: { apiKey: fubKey },
        })
        expect(connected.status).toBe(200)
        const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })

        // Each guest signs in at the door, agreeing to email.
        const signedIn = await inBatches(guests, async (g, i) => {
          const email = `guest-${run}-${i}-${randomUUID().slice(0, 8)}@example.com`
          const res = await t.call('POST', '/public/saveProspect', {
            body: {
              prospectFirstName: g.first,
              prospectLastName: g.last,
              prospectEmailId: email,
              prospectPhoneNumber: '678 555 0199',
              openHouseId: oh.id,
              clientRequestId: randomUUID(),
              emailConsent: true,
              consentText: 'Email me about homes like this one.',
            },
          })
          expect(res.status, JSON.stringify(res.body)).toBe(201)
          return { ...g, email }
        })

        // The host's attendee list and the prospect API.
        const list = await get(agent.token, `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`)
        const listed = ((await list.json()) as { data: Array<Record<string, string | number>> }).data
        expect(listed).toHaveLength(GUESTS)
        const byEmail = new Map(listed.map((p) => [String(p.prospectEmailId), p]))
        await inBatches(signedIn, async (g) => {
          const row = byEmail.get(g.email)
          expect(row?.prospectFirstName).toBe(g.first)
          expect(row?.prospectLastName).toBe(g.last)
          const details = await get(agent.token, `/prospectmgmt/getProspectDetails/${row?.id}`)
          const p = ((await details.json()) as { data: Record<string, string> }).data
          expect([p.prospectFirstName, p.prospectLastName]).toEqual([g.first, g.last])

          // The vCard, read by ical.js; its file name offered whole (RFC 6266) with an ASCII fallback.
          const vcf = await get(agent.token, `/prospectmgmt/getProspectVCard/${row?.id}`)
          expect(vcf.status).toBe(200)
          const disposition = vcf.headers.get('content-disposition')
          expect(disposition).toMatch(
            /^attachment; filename=("[\x20-\x7e]*"|[\x21-\x7e]+)(; filename\*=UTF-8''[\x21-\x7e]+)?$/,
          )
          expect(offeredName(disposition)).toBe(
            `${`${g.first}-${g.last}`.replace(/[^\p{L}\p{N}-]+/gu, '-')}.vcf`,
          )
          const vcfText = await vcf.text()
          const card = vcardOf(vcfText)
          expect(card.getFirstPropertyValue('fn')).toBe(`${g.first} ${g.last}`)
          expect(nameOf(card, vcfText, g)).toEqual([g.last, g.first, '', '', ''])
          expect(card.getFirstPropertyValue('tel')).toBe('tel:+16785550199')
        })

        // The CSV export, read by csv-parse: one row per guest, names as typed.
        const csv = await get(agent.token, `/prospectmgmt/export/${agent.agent.id}.csv`)
        expect(csv.status).toBe(200)
        const csvText = await csv.text()
        const rows = parseCsv(csvText, { columns: true, bom: true, record_delimiter: '\r\n' }) as Array<
          Record<string, string>
        >
        expect(rows).toHaveLength(GUESTS)
        for (const g of signedIn) {
          const row = rows.find((r) => r.Email === g.email)
          expect([row?.['First Name'], row?.['Last Name']]).toEqual([g.first, g.last])
          expect(row?.['Email Consent']).toBe('Opted in')
        }

        // The open house's .ics, read by ical.js: the agent's name as ORGANIZER and in the description.
        const ics = await get(agent.token, `/openhousemgmt/calendar/${oh.id}`)
        expect(ics.status).toBe(200)
        const icsText = await ics.text()
        for (const line of icsText.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
        const event = new ICAL.Component(ICAL.parse(icsText) as never).getFirstSubcomponent('vevent')
        expect(organizerNameOf(event, icsText, hostName)).toBe(hostName)
        expect(String(event?.getFirstPropertyValue('description'))).toContain(`Listing agent: ${hostName}`)

        // The thank-you mail, read by mailparser: from the agent's name, greeting the guest by name.
        const mails = await smtp.waitFor((m) => signedIn.some((g) => m.to.includes(g.email)), GUESTS, 30_000)
        for (const g of signedIn) {
          const mail = mails.find((m: ReceivedMail) => m.to.includes(g.email))
          expect(mail?.raw.from?.value[0]?.name).toBe(hostName)
          expect(mail?.raw.replyTo?.value[0]?.address).toBe(agent.agent.reAgentEmailId)
          expect(mail?.text).toContain(`Hi ${plainFirstName(g.first)}, thank you for visiting`)
        }

        // The prospect.created webhook: the guests' names as typed, in JSON, and the agent's wherever
        // its id is (the lead's owner, the open house's listing agent, host and scheduler).
        await until(() => hooks.at(endpoint).length >= GUESTS, 'the prospect.created events', 30_000)
        const payloads = hooks.at(endpoint).map((r) => JSON.parse(r.body).data)
        const created = payloads.map((d) => d.prospect as Record<string, string>)
        for (const g of signedIn) {
          const p = created.find((c) => c.prospectEmailId === g.email)
          expect([p?.prospectFirstName, p?.prospectLastName]).toEqual([g.first, g.last])
          expect(p?.createdByREAgentName).toBe(hostName)
        }
        for (const { openHouse } of payloads) {
          expect(openHouse.listingREAgentName).toBe(hostName)
          expect(openHouse.hostingREAgentName).toBe(hostName)
          expect(openHouse.scheduledByREAgentName).toBe(hostName)
        }

        // The Follow Up Boss event: the person's names as typed, in JSON.
        const auth = `Basic ${Buffer.from(`${fubKey}:`).toString('base64')}`
        const fubPosts = () => fub.at('/v1/events').filter((r) => r.headers.authorization === auth)
        await until(() => fubPosts().length >= GUESTS, 'the Follow Up Boss events', 30_000)
        const people = fubPosts().map(
          (r) =>
            JSON.parse(r.body).person as { firstName: string; lastName: string; emails: [{ value: string }] },
        )
        for (const g of signedIn) {
          const p = people.filter((c) => c.emails[0].value === g.email)
          expect(p.map((c) => [c.firstName, c.lastName])).toEqual([[g.first, g.last]])
        }
      },
    ),
    { numRuns: RUNS, endOnFailure: true },
  )
}, 240_000)
