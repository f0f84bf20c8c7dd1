import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { apiCaller } from '../support/api.ts'
import { withRoundTripsCounted } from '../support/counting-relay.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Issue 37 N3: the answer to a sign-in must not tell whether its email had visited, by its shape or by
// how long it takes. A known email used to pay a second transaction (eight round trips to PostgreSQL
// against a new email's two); both now take the same statements (decision 029). Issue 38: a guest who
// agrees to email used to cost seven round trips more (the ledger, the thank-you, the follow-up); its
// visit is now marked as owed a welcome in the same statement and the worker does the rest (decision
// 053). Issue 38 again: the plain sign-in (no custom answers, no integrations at the door) is one
// statement without BEGIN and COMMIT, which reads the open house and checks its rules itself; any
// other falls back to the transaction (decision 061). The API here reaches PostgreSQL through a relay
// that counts what the API writes to it: each write is a round trip.

const made = withRoundTripsCounted()

/**
 * The round trips of one sign-in. What follows a sign-in after its answer (the agents' statistics read
 * for their sockets) is let finish first: only the sign-in's own statements are counted.
 */
async function trips(body: Record<string, unknown>, status = 201) {
  const { writes, settled, url } = made.counted
  await settled()
  const before = writes.count
  const res = await apiCaller(url)('POST', '/public/saveProspect', { body })
  expect(res.status).toBe(status)
  return writes.atAnswer - before
}

describe('a known email and a new one, with consent to email and without', () => {
  it('take the same round trips to PostgreSQL', async () => {
    const { t } = made
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const known = `known-${Date.now()}@example.com`
    // Warm: each statement prepared on the connection, the email known to the agent.
    for (let i = 0; i < 3; i++) {
      await trips(guestFields(oh.id, { prospectEmailId: known }))
      await trips(guestFields(oh.id))
    }
    const mail = { emailConsent: 'true', consentText: 'Email me about homes like this one.' }
    const rounds = []
    for (let i = 0; i < 3; i++) {
      rounds.push({
        known: await trips(guestFields(oh.id, { prospectEmailId: known })),
        unknown: await trips(guestFields(oh.id)),
        knownWithMail: await trips(guestFields(oh.id, { prospectEmailId: known, ...mail })),
        unknownWithMail: await trips(guestFields(oh.id, mail)),
      })
    }
    for (const r of rounds) {
      expect(r.known).toBe(r.unknown)
      expect(r.knownWithMail).toBe(r.unknownWithMail)
      expect(r.unknownWithMail).toBe(r.unknown)
    }
    // One statement, consent or none: it reads the open house, checks it and writes (decision 061). It
    // was three: BEGIN with the open house read (decision 022), the insert, the COMMIT (decision 044).
    expect(rounds[0]?.unknown).toBe(1)
    expect(rounds[0]?.unknownWithMail).toBe(1)
    // And the consenting visits are owed their welcome (the worker, not running here, does it).
    const owed = await t.db
      .selectFrom('guestWelcome')
      .innerJoin('openHouseAttendee as a', 'a.id', 'guestWelcome.attendeeId')
      .select('a.id')
      .where('a.openHouseId', '=', oh.id)
      .execute()
    expect(owed).toHaveLength(6)
  })
})

describe('a sign-in the one statement does not take', () => {
  it('falls back to the transaction, which answers as before', async () => {
    const { t } = made
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, {
      publishLevel: 'Hosting Myself',
      customQuestions: [{ text: 'Are you pre-approved?', kind: 'yesno' }],
    })
    const question = String(
      (oh as unknown as { customQuestions: Array<{ id: number }> }).customQuestions[0]?.id,
    )
    for (let i = 0; i < 2; i++) {
      await trips(guestFields(oh.id))
      await trips(guestFields(oh.id, { customAnswers: { [question]: 'Yes' } }))
    }
    // Custom answers: the transaction at once (BEGIN with the read, the questions, the insert, COMMIT).
    expect(await trips(guestFields(oh.id, { customAnswers: { [question]: 'Yes' } }))).toBe(4)
    expect(await trips(guestFields(oh.id))).toBe(1)

    // An integration at the door: the statement writes nothing, and the transaction writes the visit
    // with its webhook event.
    const endpoint = await t.db
      .insertInto('webhookEndpoint')
      .values({
        reAgentId: listing.agent.id,
        url: 'https://hooks.example.com/porchlight',
        events: ['prospect.created'],
        secret: `whsec_${randomBytes(24).toString('base64')}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const withHook = await trips(guestFields(oh.id))
    expect(withHook).toBeGreaterThan(3)
    const told = await t.db
      .selectFrom('webhookDelivery')
      .select('eventType')
      .where('endpointId', '=', endpoint.id)
      .execute()
    expect(told.map((d) => d.eventType)).toEqual(['prospect.created'])
    await t.db.deleteFrom('webhookEndpoint').where('id', '=', endpoint.id).execute()
    expect(await trips(guestFields(oh.id))).toBe(1)

    // An open house not on show, or unknown: 404 as before, and nothing written.
    const visits = () =>
      t.db
        .selectFrom('openHouseAttendee')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    const before = await visits()
    await trips(guestFields(2 ** 31 - 1), 404)
    await t.db
      .updateTable('openHouse')
      .set({ openHouseCanceledFlag: true, openHouseCancelReason: 'Seller Not Available' })
      .where('id', '=', oh.id)
      .execute()
    await trips(guestFields(oh.id), 409)
    expect(await visits()).toEqual(before)
  })
})
