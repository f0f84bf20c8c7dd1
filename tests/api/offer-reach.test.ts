// "Who does this offer reach" is written three ways: the policy's `levelReaches` (TypeScript, the
// details page and its buttons), `eligibleFor` (Kysely, the lists and the claim statement, run here on
// PostgreSQL) and the socket rooms (`offerRoom` of the open house among `agentRooms` of the agent, who
// hears of the offer). On generated open houses and agents, all three must give the same answer.

import { eligibleFor, reachOf } from '@porchlight/server/src/modules/open-houses/repo.ts'
import { offerRoom } from '@porchlight/server/src/modules/open-houses/rooms.ts'
import { type Actor, agentRooms, levelReaches, PUBLISH_LEVELS } from '@porchlight/shared'
import fc from 'fast-check'
import { CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'

let t: TestDatabase
beforeAll(async () => {
  t = await createTestDatabase()
})
afterAll(() => t?.drop())

const FIRMS = ['FIRM-1', 'FIRM-2', 'FIRM-3']
const TEAMS = [1, 2, 3, 4, 5, 6]

const agent: fc.Arbitrary<Actor> = fc.record({
  id: fc.integer({ min: 1, max: 1000 }),
  role: fc.constantFrom('Real Estate Agent', 'Team Lead', 'Admin Team Member'),
  firmLicense: fc.constantFrom(...FIRMS),
  firmVerified: fc.boolean(),
  teamIds: fc.uniqueArray(fc.constantFrom(...TEAMS), { maxLength: 4 }),
  teammateIds: fc.constant([]),
  actsForIds: fc.constant([]),
  ledTeamIds: fc.constant([]),
})

/** Levels and level ids as the app writes them (open-houses/levels.ts), to firms and teams near the agent's. */
const offer = fc.constantFrom(...PUBLISH_LEVELS).chain((publishLevel) =>
  fc.record({
    publishLevel: fc.constant(publishLevel as string),
    publishLevelId:
      publishLevel === 'Hosting Myself'
        ? fc.constant('0')
        : publishLevel === 'Open To All'
          ? fc.constant('-1')
          : publishLevel === 'Market Center'
            ? fc.constantFrom(...FIRMS)
            : fc.constantFrom(...TEAMS.map(String)),
  }),
)

/** Which of the open houses `eligibleFor` lets the agent see, on PostgreSQL. */
async function reachedInSql(
  who: Actor,
  offers: ReadonlyArray<{ publishLevel: string; publishLevelId: string }>,
) {
  const query = t.handle.db
    .selectFrom('openHouse')
    .select('openHouse.id')
    .where((eb) => eligibleFor(eb, reachOf(who)))
    .compile()
  // The generated open houses stand in for the table: a CTE of that name hides it in this statement.
  const n = query.parameters.length
  const text = `with open_house (id, publish_level, publish_level_id) as (
      select * from unnest($${n + 1}::bigint[], $${n + 2}::text[], $${n + 3}::text[])
    ) ${query.sql}`
  const { rows } = await t.handle.db.executeQuery<{ id: string | number }>(
    CompiledQuery.raw(text, [
      ...query.parameters,
      offers.map((_, i) => i),
      offers.map((o) => o.publishLevel),
      offers.map((o) => o.publishLevelId),
    ]),
  )
  return new Set(rows.map((r) => Number(r.id)))
}

describe('the reach of an offer', () => {
  it('is the same in the policy, in SQL and in the socket rooms', async () => {
    await fc.assert(
      fc.asyncProperty(agent, fc.array(offer, { minLength: 1, maxLength: 12 }), async (who, offers) => {
        const inSql = await reachedInSql(who, offers)
        const joined = new Set(agentRooms(who))
        offers.forEach((oh, i) => {
          const inPolicy = levelReaches(who, oh)
          const room = offerRoom(oh)
          const inRooms = room !== null && joined.has(room)
          expect({ oh, inSql: inSql.has(i), inRooms }).toEqual({ oh, inSql: inPolicy, inRooms: inPolicy })
        })
      }),
      { numRuns: 300 },
    )
  })

  it('reaches, on the examples of docs/policy.md, whom the policy says', async () => {
    const who: Actor = {
      id: 1,
      role: 'Real Estate Agent',
      firmLicense: 'FIRM-1',
      firmVerified: true,
      teamIds: [2],
      teammateIds: [],
      actsForIds: [],
      ledTeamIds: [],
    }
    const offers = [
      { publishLevel: 'Open To All', publishLevelId: '-1' },
      { publishLevel: 'Market Center', publishLevelId: 'FIRM-1' },
      { publishLevel: 'Market Center', publishLevelId: 'FIRM-2' },
      { publishLevel: 'Real Estate Team', publishLevelId: '2' },
      { publishLevel: 'Real Estate Team', publishLevelId: '3' },
      { publishLevel: 'Hosting Myself', publishLevelId: '0' },
    ]
    expect([...(await reachedInSql(who, offers))].sort()).toEqual([0, 1, 3])
    expect([...(await reachedInSql({ ...who, firmVerified: false, teamIds: [] }, offers))]).toEqual([0])
  })
})
