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
// 053). The API here reaches PostgreSQL through a relay that counts what the API writes to it: each
// write is a round trip.

const made = withRoundTripsCounted()

describe('a known email and a new one, with consent to email and without', () => {
  it('take the same round trips to PostgreSQL', async () => {
    const { t, counted } = made
    const call = apiCaller(counted.url)
    const { writes, settled } = counted
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const known = `known-${Date.now()}@example.com`
    // What follows a sign-in after its answer (the agents' statistics read for their sockets) is let
    // finish first: only the sign-in's own statements are counted.
    const trips = async (body: Record<string, unknown>) => {
      await settled()
      const before = writes.count
      const res = await call('POST', '/public/saveProspect', { body })
      expect(res.status).toBe(201)
      return writes.count - before
    }
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
    // BEGIN with the open house read (decision 022), the insert, the COMMIT (decision 024, which sent the
    // COMMIT with the insert, is retired: decision 044), consent or none.
    expect(rounds[0]?.unknown).toBe(3)
    expect(rounds[0]?.unknownWithMail).toBe(3)
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
