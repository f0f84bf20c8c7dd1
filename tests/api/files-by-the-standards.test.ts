// The files agents download, read as the programs they open in read them: the open house's .ics by
// ical.js (RFC 5545: SEQUENCE, STATUS, ORGANIZER, 75-octet lines), the prospect CSV by csv-parse (RFC
// 4180 CRLF records, the guest's mail consent), and every download's file name by RFC 6266.

import { randomUUID } from 'node:crypto'
import { FLEXI_DATE, FLEXI_TIME } from '@porchlight/shared'
import { parse as parseDisposition } from 'content-disposition'
import { parse as parseCsv } from 'csv-parse/sync'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { prospectOfVisit, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({
    configure: (c) => {
      c.rateLimit.guestPerMinute = 10_000
    },
  })
})
afterAll(() => t?.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function download(who: Agent, path: string) {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${who.token}` } })
  return { res, text: await res.text() }
}

function eventOf(text: string): ICAL.Component {
  const event = new ICAL.Component(ICAL.parse(text) as never).getFirstSubcomponent('vevent')
  if (!event) throw new Error('no VEVENT')
  return event
}

async function signIn(openHouseId: number, extra: Record<string, unknown>) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Gale',
      prospectLastName: 'Guest',
      prospectEmailId: `guest-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0188',
      openHouseId,
      clientRequestId: randomUUID(),
      ...extra,
    },
  })
  expect(res.status).toBe(201)
  return prospectOfVisit(t, res.body.data.id)
}

describe('the open house as an .ics file', () => {
  it('names its organizer, folds at 75 octets, and tells a calendar of its cancellation', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Łucja', lastName: 'Żółkiewska-Nguyễn' })
    const oh = await scheduleOpenHouse(t, listing, {
      publishLevel: 'Hosting Myself',
      openHouseInstructions: 'Ключ в сейфе у боковой двери; 鍵は横のドアの箱にあります。 Zadzwoń, proszę.',
    })
    const before = await download(listing, `/openhousemgmt/calendar/${oh.id}`)
    expect(before.res.status).toBe(200)
    expect(before.res.headers.get('content-disposition')).toBe(`attachment; filename=open-house-${oh.id}.ics`)
    for (const line of before.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    const planned = eventOf(before.text)
    expect(planned.getFirstPropertyValue('status')).toBe('CONFIRMED')
    const organizer = planned.getFirstProperty('organizer')
    expect(organizer?.getParameter('cn')).toBe('Łucja Żółkiewska-Nguyễn')
    expect(String(organizer?.getFirstValue()).toLowerCase()).toBe(
      `mailto:${listing.agent.reAgentEmailId}`.toLowerCase(),
    )
    // Folded by octets, the description reads back whole.
    expect(String(planned.getFirstPropertyValue('description'))).toContain(
      'Ключ в сейфе у боковой двери; 鍵は横のドアの箱にあります。 Zadzwoń, proszę.',
    )
    const sequence = Number(planned.getFirstPropertyValue('sequence'))
    expect(sequence).toBeGreaterThan(0)

    await new Promise((r) => setTimeout(r, 1100))
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)
    const after = eventOf((await download(listing, `/openhousemgmt/calendar/${oh.id}`)).text)
    // The same event (UID), a higher SEQUENCE: a calendar that imports it again takes the change in.
    expect(after.getFirstPropertyValue('uid')).toBe(planned.getFirstPropertyValue('uid'))
    expect(Number(after.getFirstPropertyValue('sequence'))).toBeGreaterThan(sequence)
    expect(after.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(String(after.getFirstPropertyValue('summary'))).toMatch(/^Canceled: Open house: /)
  })

  it('answers 409 while the date is still to be picked: the state, not the caller, is the reason', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledDate: FLEXI_DATE,
      scheduledStartTime: FLEXI_TIME,
    })
    const res = await fetch(`${t.url}/api/openhousemgmt/calendar/${oh.id}`, {
      headers: { authorization: `Bearer ${listing.token}` },
    })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      error: { code: 'INVALID_STATE', message: 'Pick the date and time of this open house first' },
    })
  })
})

describe('the prospect CSV', () => {
  it("ends records with CRLF and marks each lead's mail consent, an opt-out above all", async () => {
    const agent = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const consenting = { emailConsent: true, consentText: 'Email me about homes like this one.' }
    await signIn(oh.id, { prospectFirstName: 'Ida', ...consenting })
    const optedOut = await signIn(oh.id, { prospectFirstName: 'Otto', ...consenting })
    await signIn(oh.id, { prospectFirstName: 'Dana', emailConsent: false, consentText: 'Email me.' })
    const typed = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: agent.token,
      body: {
        prospectFirstName: 'Nell',
        prospectLastName: 'Typed',
        prospectEmailId: `nell-${randomUUID().slice(0, 8)}@example.com`,
        prospectPhoneNumber: '404 555 0100',
      },
    })
    expect(typed.status).toBe(201)
    const out = await t.call('POST', `/prospectmgmt/optOutProspectEmail/${optedOut}`, { token: agent.token })
    expect(out.status).toBe(200)

    const { res, text } = await download(agent, `/prospectmgmt/export/${agent.agent.id}.csv`)
    expect(res.status).toBe(200)
    // Every record ends in CRLF (RFC 4180), none in a bare LF.
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/)
    const rows = parseCsv(text, { columns: true, bom: true }) as Array<Record<string, string>>
    const consent = Object.fromEntries(rows.map((r) => [r['First Name'], r['Email Consent']]))
    expect(consent).toEqual({ Ida: 'Opted in', Otto: 'Opted out', Dana: 'Declined', Nell: 'Not asked' })
  })
})

describe('download file names', () => {
  it('offers a name in any alphabet whole (RFC 6266 filename*) with an ASCII fallback', async () => {
    const agent = await makePlannedAgent(t.db)
    const save = async (first: string, last: string) => {
      const res = await t.call('POST', '/prospectmgmt/saveProspect', {
        token: agent.token,
        body: {
          prospectFirstName: first,
          prospectLastName: last,
          prospectEmailId: `p-${randomUUID().slice(0, 8)}@example.com`,
          prospectPhoneNumber: '6785550199',
        },
      })
      expect(res.status).toBe(201)
      return res.body.data.id as number
    }
    const cases = [
      ['Ольга', 'Иванова', 'contact.vcf', 'Ольга-Иванова.vcf'],
      ['李', '小龙', 'contact.vcf', '李-小龙.vcf'],
      ['Thị', 'Nguyễn', 'Thi-Nguyen.vcf', 'Thị-Nguyễn.vcf'],
      ['Łukasz', 'Wójcik', 'Lukasz-Wojcik.vcf', 'Łukasz-Wójcik.vcf'],
      ['José', 'Núñez', 'Jose-Nunez.vcf', 'José-Núñez.vcf'],
    ] as const
    for (const [first, last, fallback, whole] of cases) {
      const { res, text } = await download(agent, `/prospectmgmt/getProspectVCard/${await save(first, last)}`)
      expect(res.status).toBe(200)
      const header = res.headers.get('content-disposition') ?? ''
      // The header itself is ASCII: nothing a client could read as Latin-1 and garble.
      expect(header).toMatch(/^[\x20-\x7e]+$/)
      expect(parseDisposition(header, { extended: false }).parameters.filename).toBe(fallback)
      // A client that reads RFC 8187 gets the name as typed (the parser puts filename* in its place).
      expect(header).toContain("; filename*=UTF-8''")
      expect(parseDisposition(header).parameters.filename).toBe(whole)
      expect(text).toContain('\r\nTEL;VALUE=uri;TYPE=voice:tel:+16785550199\r\n')
    }
  })
})
