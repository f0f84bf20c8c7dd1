// The prospect as a vCard 4.0 contact (RFC 6350), one or the filtered list, read back by ical.js (Mozilla's
// RFC 6350 parser) rather than by string matching; the cards are the owner's alone.

import { randomBytes } from 'node:crypto'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { hostedGuest } from '../support/open-houses.ts'

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
const unique = () => randomBytes(4).toString('hex')

async function prospect(owner: Agent, overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/prospectmgmt/saveProspect', {
    token: owner.token,
    body: {
      prospectFirstName: 'Riley',
      prospectLastName: 'Stone',
      prospectEmailId: `riley-${unique()}@example.com`,
      prospectPhoneNumber: '404 555 0177',
      ...overrides,
    },
  })
  if (res.status !== 201) throw new Error(`saveProspect: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; updatedDate: string; prospectEmailId: string }
}

async function get(who: Agent, path: string) {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${who.token}` } })
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), res }
}

/** Every card in the text, as ical.js reads it. */
function cards(text: string): ICAL.Component[] {
  const parsed = ICAL.parse(text)
  // One card parses to one jCard; several to a list of them.
  const list = typeof parsed[0] === 'string' ? [parsed] : parsed
  return (list as unknown[]).map((j) => new ICAL.Component(j as never))
}

describe('prospects as vCards', () => {
  it("writes one prospect's card with FN, N, EMAIL, TEL, ADR, NOTE and REV, escaped as RFC 6350 asks", async () => {
    const owner = await makePlannedAgent(t.db)
    const p = await prospect(owner, {
      prospectFirstName: 'Anne-Marie',
      prospectMiddleName: 'Q',
      prospectLastName: "O'Hara; Smith, Jr.",
      prospectAddress1: '12 Porch Lane, Apt 2',
      prospectCity: 'Roswell',
      prospectState: 'Georgia',
      prospectZipCode: '30075',
      prospectCountry: 'United States',
    })
    await t.call('POST', `/prospectmgmt/addProspectNote/${p.id}`, {
      token: owner.token,
      body: { noteText: 'Wants a big kitchen; call after 6pm.\nSecond line, with a comma.' },
    })
    await t.call('PATCH', `/prospectmgmt/updateProspectFollowUp/${p.id}`, {
      token: owner.token,
      body: { prospectStage: 'Contacted' },
    })

    const res = await get(owner, `/prospectmgmt/getProspectVCard/${p.id}`)
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/vcard/)
    expect(res.res.headers.get('content-disposition')).toBe(
      'attachment; filename=Anne-Marie-O-Hara-Smith-Jr-.vcf',
    )
    expect(res.text).toMatch(/^BEGIN:VCARD\r\nVERSION:4\.0\r\n/)
    for (const line of res.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)

    const [card] = cards(res.text)
    if (!card) throw new Error('no card')
    expect(card.getFirstPropertyValue('version')).toBe('4.0')
    expect(card.getFirstPropertyValue('fn')).toBe("Anne-Marie Q O'Hara; Smith, Jr.")
    expect(card.getFirstPropertyValue('n')).toEqual(["O'Hara; Smith, Jr.", 'Anne-Marie', 'Q', '', ''])
    expect(card.getFirstPropertyValue('email')).toBe(p.prospectEmailId)
    // E.164, as a phone dials it from anywhere (typed '404 555 0177').
    expect(card.getFirstPropertyValue('tel')).toBe('tel:+14045550177')
    const adr = card.getFirstPropertyValue('adr') as unknown as string[]
    expect(adr.slice(2)).toEqual(['12 Porch Lane, Apt 2', 'Roswell', 'Georgia', '30075', 'United States'])
    const note = String(card.getFirstPropertyValue('note'))
    expect(note).toContain('Stage: Contacted')
    expect(note).toContain('Wants a big kitchen; call after 6pm.\nSecond line, with a comma.')
    const rev = (card.getFirstPropertyValue('rev') as ICAL.Time).toJSDate().getTime()
    const details = await t.call('GET', `/prospectmgmt/getProspectDetails/${p.id}`, { token: owner.token })
    expect(Math.abs(rev - new Date(details.body.data.updatedDate).getTime())).toBeLessThan(1000)
  })

  it("is the owner's alone: another agent, even one who sees the guest masked, gets 404", async () => {
    const listing = await makePlannedAgent(t.db)
    const host = await makePlannedAgent(t.db)
    const { prospectId: id } = await hostedGuest(t, listing, host)
    const masked = await t.call('GET', `/prospectmgmt/getProspectDetails/${id}`, { token: listing.token })
    expect(masked.body.data?.contactMasked).toBe(true)
    expect((await get(listing, `/prospectmgmt/getProspectVCard/${id}`)).status).toBe(404)
    expect((await get(host, `/prospectmgmt/getProspectVCard/${id}`)).status).toBe(200)
    expect((await get(listing, `/prospectmgmt/exportVCards/${host.agent.id}`)).status).toBe(403)
  })

  it('exports the list as filtered, one card per prospect', async () => {
    const owner = await makePlannedAgent(t.db)
    await prospect(owner, { prospectFirstName: 'Ann', workingWithREAgentFlag: false })
    await prospect(owner, { prospectFirstName: 'Bea', workingWithREAgentFlag: true })
    await prospect(owner, { prospectFirstName: 'Cy', workingWithREAgentFlag: false })

    const all = await get(owner, `/prospectmgmt/exportVCards/${owner.agent.id}?sort=name`)
    expect(all.status).toBe(200)
    expect(all.type).toMatch(/^text\/vcard/)
    expect(cards(all.text).map((c) => c.getFirstPropertyValue('fn'))).toEqual([
      'Ann Stone',
      'Bea Stone',
      'Cy Stone',
    ])
    const noRealtor = await get(
      owner,
      `/prospectmgmt/exportVCards/${owner.agent.id}?sort=name&noRealtor=true`,
    )
    const read = cards(noRealtor.text)
    expect(read.map((c) => c.getFirstPropertyValue('fn'))).toEqual(['Ann Stone', 'Cy Stone'])
    for (const c of read) {
      expect(c.getFirstPropertyValue('email')).toMatch(/@example\.com$/)
      expect(String(c.getFirstPropertyValue('note'))).toContain('Working with an agent: no')
    }
  })
})
