import { randomBytes } from 'node:crypto'
import { PROSPECT_CSV_HEADERS, prospectsCsvFileName } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent } from '../support/factories.ts'
import { hostedGuest } from '../support/open-houses.ts'

// Issue 13: the prospect list as a small CRM — sort, filters, paging with a total, stage, follow-up date
// and notes (the owner's alone), and an export Follow Up Boss and kvCORE import as it is.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = () => makePlannedAgent(t.db)
const unique = () => randomBytes(4).toString('hex')
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((p) => p.id)
const fields = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

async function save(owner: Agent, overrides: Record<string, unknown> = {}) {
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
  return res.body.data as { id: number }
}

const followUp = (who: Agent, id: number, body: Record<string, unknown>) =>
  t.call('PATCH', `/prospectmgmt/updateProspectFollowUp/${id}`, { token: who.token, body })
const addNote = (who: Agent, id: number, noteText: unknown) =>
  t.call('POST', `/prospectmgmt/addProspectNote/${id}`, { token: who.token, body: { noteText } })
const list = (who: Agent, query = '') =>
  t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${who.agent.id}?${query}`, { token: who.token })

describe('the own list sorted, filtered and paged', () => {
  it('sorts by name and by next follow-up, filters by realtor, timeline, stage and open house, and counts the matches', async () => {
    const owner = await agent()
    const cy = await save(owner, {
      prospectFirstName: 'Cy',
      prospectLastName: 'adams',
      workingWithREAgentFlag: 'false',
      homeBuyingTimelines: 'Now',
    })
    const bo = await save(owner, {
      prospectFirstName: 'Bo',
      prospectLastName: 'Young',
      workingWithREAgentFlag: 'true',
      homeBuyingTimelines: '1-3 Months',
    })
    const al = await save(owner, {
      prospectFirstName: 'Al',
      prospectLastName: 'Adams',
      workingWithREAgentFlag: 'false',
      homeBuyingTimelines: 'Now',
    })
    expect(
      (await followUp(owner, bo.id, { prospectStage: 'Client', nextFollowUpDate: daysFromNow(2) })).status,
    ).toBe(200)
    expect((await followUp(owner, cy.id, { nextFollowUpDate: daysFromNow(-1) })).status).toBe(200)

    const all = await list(owner)
    expect(ids(all)).toEqual([al.id, bo.id, cy.id])
    expect(all.body.total).toBe(3)
    expect(ids(await list(owner, 'sort=name'))).toEqual([al.id, cy.id, bo.id])
    // Overdue first, then soonest, then those with no date.
    expect(ids(await list(owner, 'sort=followUp'))).toEqual([cy.id, bo.id, al.id])

    const noRealtor = await list(owner, 'noRealtor=true&limit=1')
    expect(ids(noRealtor)).toEqual([al.id])
    expect(noRealtor.body.total).toBe(2)
    expect(ids(await list(owner, 'noRealtor=false'))).toEqual([al.id, bo.id, cy.id])
    expect(ids(await list(owner, `timeline=${encodeURIComponent('1-3 Months')}`))).toEqual([bo.id])
    expect(ids(await list(owner, 'stage=New&sort=name'))).toEqual([al.id, cy.id])
    const page2 = await list(owner, 'stage=New&timeline=Now&limit=1&offset=1')
    expect(ids(page2)).toEqual([cy.id])
    expect(page2.body.total).toBe(2)

    const bad = await list(owner, 'sort=oldest&stage=Lost&timeline=Soon')
    expect(bad.status).toBe(400)
  })

  it("filters the host's guests by the open house they came to, and offers the agent's open houses to filter by", async () => {
    const listing = await agent()
    const host = await agent()
    const { openHouseId, prospectId } = await hostedGuest(t, listing, host)
    await save(host)
    const guests = await list(host, `openHouseId=${openHouseId}`)
    expect(ids(guests)).toEqual([prospectId])
    expect(guests.body.total).toBe(1)
    // The listing agent's list holds no guest of the host's.
    expect((await list(listing, `openHouseId=${openHouseId}`)).body).toEqual({ data: [], total: 0 })

    const options = await t.call('GET', `/prospectmgmt/getProspectOpenHouses/${host.agent.id}`, {
      token: host.token,
    })
    expect(options.status).toBe(200)
    expect(options.body.data).toEqual([
      {
        openHouseId,
        scheduledDate: expect.any(String),
        propertyAddress: expect.stringContaining('Lantern Way'),
      },
    ])
    const denied = await t.call('GET', `/prospectmgmt/getProspectOpenHouses/${host.agent.id}`, {
      token: listing.token,
    })
    expect(denied.status).toBe(403)
  })
})

describe("the owner's stage, follow-up date and notes", () => {
  it('starts a lead at New; the owner moves its stage and follow-up date, clears the date, and is told what is wrong', async () => {
    const owner = await agent()
    const p = await save(owner)
    const details = await t.call('GET', `/prospectmgmt/getProspectDetails/${p.id}`, { token: owner.token })
    expect(details.body.data).toMatchObject({ prospectStage: 'New', nextFollowUpDate: null })

    const date = daysFromNow(7)
    const moved = await followUp(owner, p.id, { prospectStage: 'Nurturing', nextFollowUpDate: date })
    expect(moved.status).toBe(200)
    expect(moved.body.data).toMatchObject({ id: p.id, prospectStage: 'Nurturing', nextFollowUpDate: date })
    const cleared = await followUp(owner, p.id, { nextFollowUpDate: '' })
    expect(cleared.body.data).toMatchObject({ prospectStage: 'Nurturing', nextFollowUpDate: null })

    const wrong = await followUp(owner, p.id, { prospectStage: 'Lost', nextFollowUpDate: '2027-02-30' })
    expect(wrong.status).toBe(422)
    expect(Object.keys(fields(wrong.body)).sort()).toEqual(['nextFollowUpDate', 'prospectStage'])
    expect((await followUp(owner, p.id, {})).status).toBe(422)
  })

  it('keeps dated notes, newest first, and refuses an empty or too long one with the field named', async () => {
    const owner = await agent()
    const p = await save(owner)
    expect((await addNote(owner, p.id, 'Called, left a voicemail.')).status).toBe(201)
    const second = await addNote(owner, p.id, '  Wants a 3-bed near the park.  ')
    expect(second.status).toBe(201)
    expect(second.body.data).toMatchObject({ prospectId: p.id, noteText: 'Wants a 3-bed near the park.' })
    expect(Date.parse(second.body.data.createdDate)).not.toBeNaN()

    const notes = await t.call('GET', `/prospectmgmt/getProspectNotes/${p.id}`, { token: owner.token })
    expect(notes.body.data.map((n: { noteText: string }) => n.noteText)).toEqual([
      'Wants a 3-bed near the park.',
      'Called, left a voicemail.',
    ])

    const empty = await addNote(owner, p.id, '   ')
    expect(empty.status).toBe(422)
    expect(fields(empty.body)).toEqual({ noteText: 'Note is required' })
    const long = await addNote(owner, p.id, 'x'.repeat(2001))
    expect(fields(long.body)).toEqual({ noteText: 'Note must be at most 2000 characters' })
  })

  it('lets an agent who may see the guest neither read nor write its notes, stage or date: to it they do not exist', async () => {
    const listing = await agent()
    const host = await agent()
    const stranger = await agent()
    const { prospectId } = await hostedGuest(t, listing, host)
    await followUp(host, prospectId, { prospectStage: 'Contacted', nextFollowUpDate: daysFromNow(3) })
    await addNote(host, prospectId, 'Private: pre-approved at 600k.')

    // The listing agent sees the guest, masked, but not the host's business with it.
    const seen = await t.call('GET', `/prospectmgmt/getProspectDetails/${prospectId}`, {
      token: listing.token,
    })
    expect(seen.status).toBe(200)
    expect(seen.body.data).toMatchObject({ prospectStage: null, nextFollowUpDate: null })
    for (const who of [listing, stranger]) {
      const read = await t.call('GET', `/prospectmgmt/getProspectNotes/${prospectId}`, { token: who.token })
      expect(read.status).toBe(404)
      expect(JSON.stringify(read.body)).not.toContain('600k')
      expect((await addNote(who, prospectId, 'Mine now')).status).toBe(404)
      expect((await followUp(who, prospectId, { prospectStage: 'Closed' })).status).toBe(404)
    }
    const kept = await t.db
      .selectFrom('prospect')
      .select('prospectStage')
      .where('id', '=', prospectId)
      .executeTakeFirstOrThrow()
    expect(kept.prospectStage).toBe('Contacted')
    const notes = await t.db
      .selectFrom('prospectNote')
      .select('noteText')
      .where('prospectId', '=', prospectId)
      .execute()
    expect(notes).toEqual([{ noteText: 'Private: pre-approved at 600k.' }])
    expect((await t.call('GET', `/prospectmgmt/getProspectNotes/${prospectId}`)).status).toBe(403)
  })
})

describe('the CSV export', () => {
  it('exports the filtered list with the headers Follow Up Boss and kvCORE map, a dated file name, and formulas defused', async () => {
    const listing = await agent()
    const host = await agent()
    const stranger = await agent()
    const { prospectId } = await hostedGuest(t, listing, host)
    await followUp(host, prospectId, { prospectStage: 'Nurturing', nextFollowUpDate: '2026-12-01' })
    await addNote(host, prospectId, 'Loves the porch.')
    await addNote(host, prospectId, '=cmd|" /C calc"!A0')
    await save(host, {
      prospectFirstName: 'Zoë',
      prospectLastName: 'Quinn, "Q"',
      workingWithREAgentFlag: 'true',
      prospectAddress1: '12 Porch Lane',
      prospectAddress2: 'Apt 4',
      prospectCity: 'Roswell',
      prospectState: 'Georgia',
      prospectZipCode: '30075',
      homeBuyingTimelines: '3-6 Months',
    })
    await save(host, {
      prospectFirstName: '=HYPERLINK("http://x")',
      prospectLastName: 'Evil',
      workingWithREAgentFlag: 'false',
    })

    const exported = async (query: string, who = host) => {
      const res = await fetch(`${t.url}/api/prospectmgmt/export/${host.agent.id}.csv?${query}`, {
        headers: { authorization: `Bearer ${who.token}` },
      })
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer())
      return { res, text }
    }
    const { res, text } = await exported('sort=name')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const today = new Date().toISOString().slice(0, 10)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename=porchlight-prospects-${today}.csv`,
    )
    expect(prospectsCsvFileName(today)).toBe(`porchlight-prospects-${today}.csv`)
    expect(text.charCodeAt(0)).toBe(0xfeff)
    // Records end in CRLF (RFC 4180); a line break inside a note stays a bare LF inside its quotes.
    expect(text).toMatch(/Tags,Notes,Email Consent\r\n/)
    const lines = text.slice(1).split('\r\n').join('\n').trimEnd().split('\n')
    expect(lines[0]).toBe(
      'First Name,Last Name,Email,Phone,Address,City,State,Zip,Source,Tags,Notes,Email Consent',
    )
    expect(lines[0]).toBe(PROSPECT_CSV_HEADERS.join(','))
    // By name: Evil, Guest, "Quinn, ""Q""".
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/x""\)",Evil,/)
    expect(lines[1]).toMatch(/,Porchlight,"New, No Realtor",,Not asked$/)
    // The guest skipped "working with an agent": no "No Realtor" tag (decision 038).
    expect(lines[2]).toMatch(
      /^Gale,Guest,guest-[0-9a-f]+@example\.com,404 555 0188,,,,,"Porchlight Open House - \d+ Lantern Way, Alpharetta, Georgia 30004",Nurturing,"Next follow-up: 2026-12-01$/,
    )
    expect(lines[3]).toMatch(/^\d{4}-\d{2}-\d{2}: Loves the porch\.$/)
    // A note starting like a formula inside a cell that does not: the cell starts with text.
    expect(lines[4]).toMatch(/^\d{4}-\d{2}-\d{2}: =cmd\|"" \/C calc""!A0",\w[\w ]+$/)
    expect(lines[5]).toMatch(/^Zoë,"Quinn, ""Q""",riley-/)
    expect(lines[5]).toContain(
      '"12 Porch Lane, Apt 4",Roswell,Georgia,30075,Porchlight,"New, Timeline 3-6 Months",',
    )

    const filtered = await exported('stage=Nurturing')
    const rows = filtered.text.slice(1).trim().split('\r\n').join('\n').split('\n')
    expect(rows[0]).toBe(PROSPECT_CSV_HEADERS.join(','))
    expect(rows[1]).toMatch(/^Gale,Guest,/)
    expect(filtered.text).not.toContain('Zoë')
    expect(filtered.text).not.toContain('HYPERLINK')
    // "No realtor" is those who said no: not Gale, who did not say (decision 038).
    const noRealtor = await exported('noRealtor=true')
    expect(noRealtor.text).toContain('HYPERLINK')
    expect(noRealtor.text).not.toContain('Gale')
    expect(noRealtor.text).not.toContain('Zoë')

    expect((await exported('', stranger)).res.status).toBe(403)
  })
})
