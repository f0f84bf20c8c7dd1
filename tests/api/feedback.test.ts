import { randomBytes, randomUUID } from 'node:crypto'
import { FEEDBACK_RATING_FIELDS, messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = () => makePlannedAgent(t.db)
const unique = () => randomBytes(4).toString('hex')
const fields = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

/** Every rating field N/A (''), as the form sends an untouched one. */
const untouched = () => Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, '']))

async function hostedBy(listing: Agent, host: Agent) {
  const oh = await scheduleOpenHouse(t, listing)
  await publish(t, listing, oh.id)
  const res = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  if (res.status !== 200) throw new Error(`claim: ${JSON.stringify(res.body)}`)
  return oh
}

async function guest(openHouseId: number) {
  const email = `visitor-${unique()}@example.com`
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Quinn',
      prospectLastName: 'Harper',
      prospectEmailId: email,
      prospectPhoneNumber: '678 555 0101',
      openHouseId,
      clientRequestId: randomUUID(),
    },
  })
  if (res.status !== 201) throw new Error(`guest: ${JSON.stringify(res.body)}`)
  tokens.set(res.body.data.id, res.body.data.guestToken)
  return { id: res.body.data.id as number, email, token: res.body.data.guestToken as string }
}

/** The guest token each sign-in answered, by prospect: the feedback form sends its own. */
const tokens = new Map<number, string>()

const give = (openHouseId: number, prospectId: number, ratings: Record<string, unknown>, text?: string) =>
  t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId,
      prospectId,
      guestToken: tokens.get(prospectId),
      feedbackText: text,
      ...untouched(),
      ...ratings,
    },
  })

describe('guest feedback', () => {
  it('saves the feedback of a visitor who signed in, rating the open house host; N/A stays empty', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await hostedBy(listing, host)
    const visitor = await guest(oh.id)
    const res = await give(
      oh.id,
      visitor.id,
      { kitchen: 5, curbAppeal: '4', garage: null, agentKnowledge: 3, hostingREAgentId: listing.agent.id },
      'Lovely light in the kitchen.',
    )
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      openHouseId: oh.id,
      prospectId: visitor.id,
      hostingREAgentId: host.agent.id,
      feedbackText: 'Lovely light in the kitchen.',
      kitchen: 5,
      curbAppeal: 4,
      garage: null,
      homeLot: null,
      agentKnowledge: 3,
    })
    expect(res.body.data.id).toBeGreaterThan(0)
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(visitor.email)
    expect(text).not.toContain('678 555 0101')
  })

  it('takes ratings 1 to 5 only', async () => {
    const oh = await scheduleOpenHouse(t, await agent(), { publishLevel: 'Hosting Myself' })
    const visitor = await guest(oh.id)
    const res = await give(oh.id, visitor.id, { kitchen: 0, garage: 6, basement: 'great', homeLot: 2.5 })
    expect(res.status).toBe(422)
    const message = 'A rating is 1 to 5, or empty for N/A'
    expect(fields(res.body)).toEqual({
      kitchen: message,
      garage: message,
      basement: message,
      homeLot: message,
    })
    const missing = await t.call('POST', '/public/saveOpenHouseFeedback', { body: { feedbackText: 'hi' } })
    expect(missing.status).toBe(422)
    expect(Object.keys(fields(missing.body)).sort()).toEqual(['guestToken', 'openHouseId', 'prospectId'])
  })

  it("takes one feedback per visitor and open house, answering a repeat with SPEC's text", async () => {
    const oh = await scheduleOpenHouse(t, await agent(), { publishLevel: 'Hosting Myself' })
    const visitor = await guest(oh.id)
    expect((await give(oh.id, visitor.id, { kitchen: 4 })).status).toBe(201)
    const again = await give(oh.id, visitor.id, { kitchen: 1 })
    expect(again.status).toBe(409)
    expect(again.body.error).toEqual({ code: 'FEEDBACK_EXISTS', message: messages.feedbackSaveFailed })
  })

  it('takes feedback only from a visitor of that open house', async () => {
    const listing = await agent()
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const elsewhere = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const visitor = await guest(elsewhere.id)
    const res = await give(oh.id, visitor.id, { kitchen: 5 })
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: messages.feedbackSaveFailed })
    expect((await give(987654321, visitor.id, { kitchen: 5 })).status).toBe(404)
  })

  it('takes no feedback on a canceled open house', async () => {
    const listing = await agent()
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const visitor = await guest(oh.id)
    await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    const res = await give(oh.id, visitor.id, { kitchen: 5 })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('INVALID_STATE')
  })

  it('lets the visitor edit its feedback when it names the same prospect and open house', async () => {
    const oh = await scheduleOpenHouse(t, await agent(), { publishLevel: 'Hosting Myself' })
    const visitor = await guest(oh.id)
    const other = await guest(oh.id)
    const saved = await give(oh.id, visitor.id, { kitchen: 2 }, 'Small kitchen.')
    const id = saved.body.data.id
    const edit = (prospectId: number, ratings: Record<string, unknown>, text?: string) =>
      t.call('PATCH', `/feedback/saveOpenHouseFeedback/${id}`, {
        body: {
          openHouseId: oh.id,
          prospectId,
          guestToken: tokens.get(prospectId),
          feedbackText: text,
          ...untouched(),
          ...ratings,
        },
      })

    const edited = await edit(visitor.id, { kitchen: 3, homePrice: 4 }, 'Kitchen is fine.')
    expect(edited.status).toBe(200)
    expect(edited.body.data).toMatchObject({ id, kitchen: 3, homePrice: 4, feedbackText: 'Kitchen is fine.' })

    const notTheirs = await edit(other.id, { kitchen: 1 })
    expect(notTheirs.status).toBe(404)
    expect(notTheirs.body.error.message).toBe(messages.feedbackSaveFailed)
    const row = await t.db
      .selectFrom('openHouseFeedback')
      .select('kitchen')
      .where('id', '=', id)
      .executeTakeFirst()
    expect(row?.kitchen).toBe(3)
  })
})

describe('feedback needs the guest token', () => {
  it('refuses forged feedback by sequential ids: a review cannot be overwritten without its token', async () => {
    const oh = await scheduleOpenHouse(t, await agent(), { publishLevel: 'Hosting Myself' })
    const visitor = await guest(oh.id)
    const saved = await give(oh.id, visitor.id, { kitchen: 5, overallExperience: 5 }, 'Wonderful home.')
    expect(saved.status).toBe(201)
    const id: number = saved.body.data.id
    const forged = {
      openHouseId: oh.id,
      prospectId: visitor.id,
      ...untouched(),
      kitchen: 1,
      overallExperience: 1,
      feedbackText: 'TERRIBLE',
    }
    // The attack as measured: anonymous probes naming the right ids, with no or a made-up token.
    const attempts = [
      await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${id}`, { body: forged }),
      await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${id}`, {
        body: { ...forged, guestToken: randomBytes(32).toString('base64url') },
      }),
      // Another visitor's real token does not fit this visitor's feedback.
      await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${id}`, {
        body: { ...forged, guestToken: (await guest(oh.id)).token },
      }),
      await t.call('POST', '/public/saveOpenHouseFeedback', {
        body: { ...forged, prospectId: (await guest(oh.id)).id, guestToken: visitor.token },
      }),
    ]
    expect(attempts.map((a) => a.status)).toEqual([422, 404, 404, 404])
    const row = await t.db
      .selectFrom('openHouseFeedback')
      .select(['kitchen', 'overallExperience', 'feedbackText'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ kitchen: 5, overallExperience: 5, feedbackText: 'Wonderful home.' })
    // Only the hash is kept.
    const stored = await t.db.selectFrom('guestToken').select('tokenHash').execute()
    expect(stored.map((r) => r.tokenHash)).not.toContain(visitor.token)
  })
})

describe('feedback summaries', () => {
  it('averages each rating (rounded, N/A left out), counts, and lists the texts newest first', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await hostedBy(listing, host)
    const [v1, v2, v3] = [await guest(oh.id), await guest(oh.id), await guest(oh.id)]
    await give(oh.id, v1.id, { kitchen: 5, homeLot: 4, curbAppeal: 1, agentKnowledge: 2 }, 'First.')
    await give(oh.id, v2.id, { kitchen: 4, homeLot: 5, curbAppeal: 2, agentKnowledge: '' }, '')
    await give(oh.id, v3.id, { kitchen: 4, homeLot: '', curbAppeal: '', agentKnowledge: 3 }, 'Third.')

    const res = await t.call('GET', `/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    expect(res.status).toBe(200)
    expect(res.body.data.count).toBe(3)
    expect(res.body.data.texts).toEqual(['Third.', 'First.'])
    const { averages } = res.body.data
    expect(Object.keys(averages).sort()).toEqual([...FEEDBACK_RATING_FIELDS].sort())
    expect(averages).toMatchObject({
      kitchen: 4, // 13 / 3 = 4.33
      homeLot: 5, // 4.5 rounds up
      curbAppeal: 2, // 1.5 rounds up
      agentKnowledge: 3, // 2.5 rounds up
      garage: null,
    })
    expect(res.body.data.ratingCounts).toMatchObject({
      kitchen: 3,
      homeLot: 2,
      curbAppeal: 2,
      agentKnowledge: 2,
      garage: 0,
    })

    const asHost = await t.call('GET', `/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/${oh.id}`, {
      token: host.token,
    })
    expect(asHost.body.data).toEqual(res.body.data)

    const stranger = await agent()
    const denied = await t.call('GET', `/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/${oh.id}`, {
      token: stranger.token,
    })
    // It was offered to every agent, so the stranger sees the open house, but not what visitors said.
    expect(denied.status).toBe(403)
    const hidden = await scheduleOpenHouse(t, listing)
    const unseen = await t.call('GET', `/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/${hidden.id}`, {
      token: stranger.token,
    })
    expect(unseen.status).toBe(404)
    expect(unseen.body.error.message).toBe(messages.feedbackSummaryLoadFailed)
  })

  it('sums up for an agent the feedback on the open houses it hosted, for itself only', async () => {
    const listing = await agent()
    const host = await agent()
    const first = await hostedBy(listing, host)
    const second = await hostedBy(listing, host)
    const own = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    await give(first.id, (await guest(first.id)).id, { agentProfessionalism: 5 }, 'Great host.')
    await give(second.id, (await guest(second.id)).id, { agentProfessionalism: 4 })
    await give(own.id, (await guest(own.id)).id, { agentProfessionalism: 1 }, 'Listing agent hosted.')

    const res = await t.call('GET', `/feedback/getREAgentFeedbackSummaryByREAgentId/${host.agent.id}`, {
      token: host.token,
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ count: 2, texts: ['Great host.'] })
    expect(res.body.data.averages.agentProfessionalism).toBe(5) // 4.5

    const listingOwn = await t.call(
      'GET',
      `/feedback/getREAgentFeedbackSummaryByREAgentId/${listing.agent.id}`,
      {
        token: listing.token,
      },
    )
    expect(listingOwn.body.data).toMatchObject({ count: 1, texts: ['Listing agent hosted.'] })

    const empty = await agent()
    const none = await t.call('GET', `/feedback/getREAgentFeedbackSummaryByREAgentId/${empty.agent.id}`, {
      token: empty.token,
    })
    expect(none.body.data.count).toBe(0)
    expect(none.body.data.averages.kitchen).toBeNull()
    expect(none.body.data.texts).toEqual([])

    const denied = await t.call('GET', `/feedback/getREAgentFeedbackSummaryByREAgentId/${host.agent.id}`, {
      token: listing.token,
    })
    expect(denied.status).toBe(403)
    expect(
      (await t.call('GET', `/feedback/getREAgentFeedbackSummaryByREAgentId/${host.agent.id}`)).status,
    ).toBe(403)
  })
})
