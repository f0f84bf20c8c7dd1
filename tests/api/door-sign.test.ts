import { DOOR_SIGN_CALL } from '@porchlight/shared/rules/door-sign'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleFor, scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t?.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

/** GET the door sign as the agent (or anonymously): the raw answer, body as bytes. */
async function doorSign(openHouseId: number, who?: Agent) {
  const res = await fetch(`${t.url}/api/openhousemgmt/getDoorSignPdf/${openHouseId}`, {
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

async function readPdf(bytes: Uint8Array) {
  const pdf = await getDocumentProxy(bytes.slice())
  const { text } = await extractText(pdf, { mergePages: true })
  const page = await pdf.getPage(1)
  return { pages: pdf.numPages, size: page.view, text: text.replace(/\s+/g, ' ') }
}

const details = async (id: number, who: Agent) =>
  (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${id}`, { token: who.token })).body.data

const errorOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)).error

describe('the door sign PDF', () => {
  it('is one Letter page with the address, the date and time, the host and the sign-in call', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Greta', lastName: 'Doorman' })
    const oh = await scheduleOpenHouse(t, listing, {
      publishLevel: 'Hosting Myself',
      scheduledDate: '2031-03-16',
      scheduledStartTime: '1:00 PM',
      scheduledEndTime: '3:00 PM',
    })
    const street: string = (await details(oh.id, listing)).reProperty.propertyAddress1

    const { res, bytes } = await doorSign(oh.id, listing)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const slug = street.toLowerCase().replace(/[^a-z0-9]+/g, '-')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=door-sign-${slug}.pdf`)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')

    const pdf = await readPdf(bytes)
    expect(pdf.pages).toBe(1)
    expect(pdf.size).toEqual([0, 0, 612, 792])
    expect(pdf.text).toContain('Porchlight')
    expect(pdf.text).toContain(street)
    expect(pdf.text).toContain('Alpharetta, Georgia 30004')
    // The calendar date and slots of the open house, in its own time zone (a Sunday).
    expect(pdf.text).toContain('Sunday, 03/16/2031')
    expect(pdf.text).toContain('1:00 PM – 3:00 PM')
    expect(pdf.text).toContain('Scan to sign in')
    expect(pdf.text).toContain(DOOR_SIGN_CALL)
    expect(pdf.text).toContain('Your host: Greta Doorman')
    // The listing brokerage, as advertising of a listing must name it.
    expect(pdf.text).toContain('Listed by Peachtree Realty')
    // The address the code opens, printed under it for a guest without a camera.
    expect(pdf.text).toContain(
      `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${listing.agent.id}&from=qrcode`,
    )
  })

  it('prints a host named in Vietnamese, Polish or Cyrillic letters as typed, not as wrong glyphs', async () => {
    for (const [firstName, lastName] of [
      ['Thị', 'Nguyễn'],
      ['Łukasz', 'Wójcik'],
      ['Ольга', 'Иванова'],
    ] as const) {
      const listing = await makePlannedAgent(t.db, { firstName, lastName })
      const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
      const { res, bytes } = await doorSign(oh.id, listing)
      expect(res.status).toBe(200)
      expect((await readPdf(bytes)).text).toContain(`Your host: ${firstName} ${lastName}`)
    }
  })

  it('prints names and addresses in CJK, Cyrillic, Vietnamese, Arabic (right to left) and emoji, every character kept', async () => {
    const cases = [
      { first: '李', last: '小龙', street: '北京路 12号' },
      { first: '山田', last: '太郎', street: '東京都 港区 3-1' },
      { first: 'Ольга', last: 'Иванова', street: 'улица Ленина 5' },
      { first: 'Thị', last: 'Nguyễn', street: '12 Đường Lê Lợi' },
      { first: 'مريم', last: 'حداد', street: 'شارع الملك 7' },
      { first: 'Ann 😀', last: 'Lee 🏠', street: '12 Lantern Way 🏡' },
    ]
    for (const c of cases) {
      const listing = await makePlannedAgent(t.db, { firstName: c.first, lastName: c.last })
      const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
      await t.db
        .updateTable('reProperty')
        .set({ propertyAddress1: c.street })
        .where('id', '=', oh.rePropertyId)
        .execute()
      const { res, bytes } = await doorSign(oh.id, listing)
      expect(res.status).toBe(200)
      // pdf.js says when an embedded font is broken (a glyph table it cannot read draws nothing).
      const said = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn')]
      const { text, pages } = await readPdf(bytes)
      const warnings = said.flatMap((spy) => spy.mock.calls.map((call) => String(call[0])))
      for (const spy of said) spy.mockRestore()
      expect(warnings.filter((w) => /warn/i.test(w))).toEqual([])
      expect(pages).toBe(1)
      // pdf.js's text of the PDF: each name and street exactly (a right-to-left line reads from the right).
      expect(text, `${c.first} ${c.last}`).toContain(`${c.first} ${c.last}`)
      expect(text).toContain(c.street)
      expect(text).toMatch(/Your host|host Your/)
      expect(text).not.toMatch(/[\uFFFD\u25A1]/)
      // Only the glyphs used are embedded: a sign with a Chinese name is not a font's megabytes.
      expect(bytes.length).toBeLessThan(250_000)
    }
  })

  it('names the host once someone claimed it, for the host and the listing agent alike', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lena', lastName: 'Lister' })
    const host = await makePlannedAgent(t.db, { firstName: 'Hugo', lastName: 'Host' })
    const oh = await scheduleHostedBy(t, listing, host)

    for (const who of [host, listing]) {
      const { res, bytes } = await doorSign(oh.id, who)
      expect(res.status).toBe(200)
      const pdf = await readPdf(bytes)
      expect(pdf.text).toContain('Your host: Hugo Host')
      expect(pdf.text).toContain(`reAgentId=${host.agent.id}&from=qrcode`)
    }
  })

  it('is also for the Team Lead who scheduled it for a teammate', async () => {
    const firm = `SIGN-${Math.random().toString(36).slice(2, 8)}`
    const lead = await makePlannedAgent(t.db, { brokerFirmLicense: firm, role: 'Team Lead' })
    const member = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Mina',
      lastName: 'Member',
    })
    await makeTeam(t.db, lead, [member])
    const oh = await scheduleFor(t, lead, member.agent.id, { publishLevel: 'Market Center' })
    const published = await t.call(
      'POST',
      `/openhousemgmt/publishOpenHouseOpportunity/${oh.id}/${member.agent.id}/Market%20Center`,
      { token: lead.token },
    )
    expect(published.status).toBe(200)
    // Nobody hosts yet: the sign names the listing agent.
    const { res, bytes } = await doorSign(oh.id, lead)
    expect(res.status).toBe(200)
    expect((await readPdf(bytes)).text).toContain('Your host: Mina Member')
  })

  it('gives anyone else the policy answer: 404 to a stranger, 403 to an agent it is offered to', async () => {
    // Offered to the listing agent's firm: a colleague sees it, an agent of another firm does not.
    const listing = await makePlannedAgent(t.db, { brokerFirmLicense: 'SIGN-FIRM' })
    const offered = await makePlannedAgent(t.db, { brokerFirmLicense: 'SIGN-FIRM' })
    const stranger = await makePlannedAgent(t.db, { brokerFirmLicense: 'SIGN-ELSEWHERE' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    expect((await publish(t, listing, oh.id, 'Market Center')).status).toBe(200)

    const asStranger = await doorSign(oh.id, stranger)
    expect(asStranger.res.status).toBe(404)
    expect(errorOf(asStranger.bytes).code).toBe('NOT_FOUND')

    const asOffered = await doorSign(oh.id, offered)
    expect(asOffered.res.status).toBe(403)
    expect(errorOf(asOffered.bytes).code).toBe('FORBIDDEN')

    const anonymous = await doorSign(oh.id)
    expect(anonymous.res.status).toBe(403)
    expect(errorOf(anonymous.bytes).code).toBe('SESSION_EXPIRED')
  })

  it('refuses a sign guests could not use: not on show yet, or canceled', async () => {
    const listing = await makePlannedAgent(t.db)
    const unpublished = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    const early = await doorSign(unpublished.id, listing)
    expect(early.res.status).toBe(409)
    expect(errorOf(early.bytes).code).toBe('INVALID_STATE')

    const canceledOh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: { openHouseId: canceledOh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)
    const late = await doorSign(canceledOh.id, listing)
    expect(late.res.status).toBe(409)
    expect(errorOf(late.bytes).code).toBe('INVALID_STATE')
  })
})
