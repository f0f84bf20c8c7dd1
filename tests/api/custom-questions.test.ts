import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attendeeCsv } from '../../server/src/modules/reports/service.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, propertyFields, scheduleFields } from '../support/factories.ts'
import { prospectOfVisit, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const fields = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

const QUESTIONS = [
  { text: 'How did you find the parking?', kind: 'text' },
  { text: 'Are you pre-approved?', kind: 'yesno' },
  { text: 'Which room did you like best?', kind: 'choice', choices: ['Kitchen', 'Garden', 'Attic'] },
]

type Question = { id: number; text: string; kind: string; choices: string[] | null }

async function withQuestions(listing: Agent, customQuestions: unknown = QUESTIONS) {
  const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself', customQuestions })
  return oh as typeof oh & { customQuestions: [Question, Question, Question] }
}

/** The ids of the three questions, as the keys of `customAnswers`. */
const idsOf = (oh: { customQuestions: Question[] }) =>
  oh.customQuestions.map((q) => String(q.id)) as [string, string, string]

const details = async (agent: Agent, id: number) =>
  (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${id}`, { token: agent.token })).body.data

const edit = (agent: Agent, id: number, rePropertyId: number, customQuestions: unknown) =>
  t.call('PATCH', `/openhousemgmt/saveOpenHouse/${id}`, {
    token: agent.token,
    body: scheduleFields(rePropertyId, { publishLevel: 'Hosting Myself', customQuestions }),
  })

function signIn(openHouseId: number, customAnswers?: Record<string, string>) {
  return t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Jordan',
      prospectLastName: 'Rivers',
      prospectEmailId: `jordan-${randomBytes(4).toString('hex')}@example.com`,
      prospectPhoneNumber: '404 555 0142',
      openHouseId,
      clientRequestId: randomUUID(),
      customAnswers,
    },
  })
}

describe('custom questions of an open house', () => {
  it('saves up to five questions in order, with ids, and shows them to the agent and the guest page', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    expect(oh.customQuestions.map(({ id: _, ...q }) => q)).toEqual([
      { text: 'How did you find the parking?', kind: 'text', choices: null },
      { text: 'Are you pre-approved?', kind: 'yesno', choices: null },
      { text: 'Which room did you like best?', kind: 'choice', choices: ['Kitchen', 'Garden', 'Attic'] },
    ])
    expect((await details(listing, oh.id)).customQuestions).toEqual(oh.customQuestions)
    const guestPage = await t.call('GET', `/public/getOpenHouseDetails/${oh.id}`)
    expect(guestPage.body.data.customQuestions).toEqual(oh.customQuestions)
  })

  it('keeps the ids of the questions it keeps when the list is edited, reordered and shortened', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    const [parking, approved, room] = oh.customQuestions
    const signedIn = await signIn(oh.id, { [String(parking.id)]: 'Easy', [String(room.id)]: 'Garden' })
    expect(signedIn.status).toBe(201)

    const res = await edit(listing, oh.id, oh.rePropertyId, [
      { ...room, text: 'Which room did you like most?' },
      { text: 'Anything else?', kind: 'text' },
      parking,
    ])
    expect(res.status).toBe(200)
    const after: Question[] = res.body.data.customQuestions
    expect(after.map((q) => q.text)).toEqual([
      'Which room did you like most?',
      'Anything else?',
      'How did you find the parking?',
    ])
    expect(after[0]?.id).toBe(room.id)
    expect(after[2]?.id).toBe(parking.id)
    expect(after.map((q) => q.id)).not.toContain(approved.id)

    // The answers stay with their questions, in the new order.
    const board = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    expect(board.body.data[0].customAnswers).toEqual([
      { questionId: room.id, question: 'Which room did you like most?', answer: 'Garden' },
      { questionId: parking.id, question: 'How did you find the parking?', answer: 'Easy' },
    ])

    // Leaving customQuestions out keeps them; an empty list removes them all.
    const untouched = await edit(listing, oh.id, oh.rePropertyId, undefined)
    expect(untouched.body.data.customQuestions).toEqual(after)
    const cleared = await edit(listing, oh.id, oh.rePropertyId, [])
    expect(cleared.body.data.customQuestions).toEqual([])
  })

  it('refuses six questions, bad choices, long text and ids of another open house with field errors', async () => {
    const listing = await makePlannedAgent(t.db)
    const other = await withQuestions(listing)
    const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
      token: listing.token,
      body: {
        owningREAgentId: listing.agent.id,
        rePropertyDTO: propertyFields(),
        reInventoryPropertyStatus: 'Property Created',
      },
    })
    const save = (customQuestions: unknown) =>
      t.call('POST', '/openhousemgmt/saveOpenHouse', {
        token: listing.token,
        body: scheduleFields(item.body.data.reProperty.id, {
          reInventoryId: item.body.data.id,
          publishLevel: 'Hosting Myself',
          customQuestions,
        }),
      })

    const six = await save(Array.from({ length: 6 }, (_, i) => ({ text: `Question ${i}`, kind: 'text' })))
    expect(six.status).toBe(422)
    expect(fields(six.body).customQuestions).toMatch(/at most 5/)

    const bad = await save([
      { text: '', kind: 'text' },
      { text: 'x'.repeat(201), kind: 'yesno' },
      { text: 'Pick one', kind: 'choice', choices: ['Only one'] },
      { text: 'Pick again', kind: 'choice', choices: ['A', 'x'.repeat(61)] },
      { text: 'What?', kind: 'essay' },
    ])
    expect(bad.status).toBe(422)
    expect(Object.keys(fields(bad.body)).sort()).toEqual([
      'customQuestions.0.text',
      'customQuestions.1.text',
      'customQuestions.2.choices',
      'customQuestions.3.choices.1',
      'customQuestions.4.kind',
    ])

    const stolen = await save([{ ...other.customQuestions[0] }])
    expect(stolen.status).toBe(422)
    expect(fields(stolen.body)).toHaveProperty('customQuestions.0.id')
  })

  it('checks the answers on sign-in against the questions, and keeps them optional', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    const [parking, approved, room] = idsOf(oh)

    expect((await signIn(oh.id)).status).toBe(201)
    const wrong = await signIn(oh.id, {
      [approved]: 'Maybe',
      [room]: 'Basement',
      [parking]: 'x'.repeat(501),
      '999999999': 'Hello',
    })
    expect(wrong.status).toBe(422)
    expect(fields(wrong.body)).toEqual({
      [`customAnswers.${approved}`]: 'Answer Yes or No',
      [`customAnswers.${room}`]: 'Pick one of the choices',
      [`customAnswers.${parking}`]: 'Keep the answer to 500 characters',
      'customAnswers.999999999': 'This question is not asked at this open house',
    })
    const right = await signIn(oh.id, { [approved]: 'Yes', [room]: 'Attic', [parking]: '  ' })
    expect(right.status).toBe(201)
    const board = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    const answered = board.body.data.find((p: { attendeeId: number }) => p.attendeeId === right.body.data.id)
    expect(answered.customAnswers).toEqual([
      { questionId: Number(approved), question: 'Are you pre-approved?', answer: 'Yes' },
      { questionId: Number(room), question: 'Which room did you like best?', answer: 'Attic' },
    ])
  })

  it('copies the questions with new ids when the open house is cloned', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    const res = await t.call('POST', `/openhousemgmt/cloneOpenHouse/${oh.id}`, { token: listing.token })
    expect(res.status).toBe(201)
    const copy: Question[] = res.body.data.customQuestions
    expect(copy.map(({ id: _, ...q }) => q)).toEqual(oh.customQuestions.map(({ id: _, ...q }) => q))
    expect(copy.map((q) => q.id)).not.toContain(oh.customQuestions[0].id)
  })

  it("adds the answers to the agent's prospects export as notes, and to the attendee report as columns", async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    const [parking, approved] = idsOf(oh)
    const signedIn = await signIn(oh.id, { [approved]: 'No', [parking]: 'Tight, but fine' })
    expect(signedIn.status).toBe(201)
    const res = await fetch(`${t.url}/api/prospectmgmt/export/${listing.agent.id}.csv?sort=name`, {
      headers: { authorization: `Bearer ${listing.token}` },
    })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('How did you find the parking?: Tight, but fine\nAre you pre-approved?: No')

    const board = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    const [header, row] = attendeeCsv(board.body.data).slice(1).trimEnd().split('\r\n')
    expect(header).toMatch(
      /,Heard About This Open House,How did you find the parking\?,Are you pre-approved\?$/,
    )
    expect(row).toMatch(/,"Tight, but fine",No$/)
  })

  it("shows a prospect's answers per visit to its owner and the open house's agents, and to nobody else", async () => {
    const listing = await makePlannedAgent(t.db)
    const stranger = await makePlannedAgent(t.db)
    const oh = await withQuestions(listing)
    const [, approved] = idsOf(oh)
    const signedIn = await signIn(oh.id, { [approved]: 'Yes' })
    const prospectId = await prospectOfVisit(t, signedIn.body.data.id)
    const res = await t.call('GET', `/prospectmgmt/getProspectCustomAnswers/${prospectId}`, {
      token: listing.token,
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({
      openHouseId: oh.id,
      answers: [{ questionId: Number(approved), question: 'Are you pre-approved?', answer: 'Yes' }],
    })
    expect(res.body.data[0].propertyAddress).toMatch(/Lantern Way/)
    const other = await t.call('GET', `/prospectmgmt/getProspectCustomAnswers/${prospectId}`, {
      token: stranger.token,
    })
    expect(other.status).toBe(404)
  })
})
