// The door's rules for a guest's sign-in are written twice (decision 061): in TypeScript for the
// transaction that reads the open house first and answers 404 or 409, and in SQL for the one statement
// that reads and writes at once (door.ts). On generated open house states and clocks, both must agree:
// whether a guest may sign in, whose lead it is, and whether its box for the listing agent counts.

import {
  type DoorFacts,
  doorAgent,
  doorAgentSql,
  doorRefusal,
  openSince,
  sharesWithListingAgent,
  sharesWithListingAgentSql,
  signInOpenSql,
} from '@porchlight/server/src/modules/prospects/door.ts'
import { SIGN_IN_AFTER_END_MS } from '@porchlight/shared'
import fc from 'fast-check'
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'

let t: TestDatabase
beforeAll(async () => {
  t = await createTestDatabase()
})
afterAll(() => t?.drop())

const NOW = Date.UTC(2026, 10, 26, 12)

/** An end near the edge of sign-in (a day after it, to the millisecond), or anywhere around now. */
const endsAt = fc.option(
  fc
    .oneof(
      fc.integer({ min: -3, max: 3 }).map((ms) => -SIGN_IN_AFTER_END_MS + ms),
      fc.integer({ min: -3 * SIGN_IN_AFTER_END_MS, max: 3 * SIGN_IN_AFTER_END_MS }),
    )
    .map((offset) => (now: number) => new Date(now + offset)),
)

const state = fc.record({
  listingReAgentId: fc.integer({ min: 1, max: 3 }),
  hosting: fc.option(fc.integer({ min: 1, max: 3 })),
  openHouseCanceledFlag: fc.boolean(),
  published: fc.boolean(),
  endsAt,
})

/** Per open house in SQL: may sign in, its door agent, whether the listing agent's box counts. */
async function inSql(states: DoorFacts[], now: number) {
  const query = sql<{ open: boolean; owner: string; shares: boolean }>`select
      ${signInOpenSql(sql`${openSince(now)}`)} as open, ${doorAgentSql} as owner,
      ${sharesWithListingAgentSql} as shares
    from open_house order by id`.compile(t.handle.db)
  const n = query.parameters.length
  // The generated open houses stand in for the table: a CTE of that name hides it in this statement.
  const text = `with open_house (id, listing_re_agent_id, hosting_re_agent_id, open_house_canceled_flag,
      published_at, ends_at) as (
      select * from unnest($${n + 1}::int[], $${n + 2}::bigint[], $${n + 3}::bigint[], $${n + 4}::boolean[],
        $${n + 5}::timestamptz[], $${n + 6}::timestamptz[])
    ) ${query.sql}`
  const { rows } = await t.handle.db.executeQuery<{ open: boolean; owner: string; shares: boolean }>(
    CompiledQuery.raw(text, [
      ...query.parameters,
      states.map((_, i) => i),
      states.map((s) => s.listingReAgentId),
      states.map((s) => s.hostingReAgentId),
      states.map((s) => s.openHouseCanceledFlag),
      states.map((s) => s.publishedAt?.toISOString() ?? null),
      states.map((s) => s.endsAt?.toISOString() ?? null),
    ]),
  )
  return rows.map((r) => ({ open: r.open, owner: Number(r.owner), shares: r.shares }))
}

describe("the door's rules for a guest's sign-in", () => {
  it('are the same in TypeScript and in the sign-in statement', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(state, { minLength: 1, maxLength: 16 }),
        fc.integer({ min: -SIGN_IN_AFTER_END_MS, max: SIGN_IN_AFTER_END_MS }),
        async (generated, shift) => {
          const now = NOW + shift
          const states: DoorFacts[] = generated.map((g) => ({
            listingReAgentId: g.listingReAgentId,
            hostingReAgentId: g.hosting,
            openHouseCanceledFlag: g.openHouseCanceledFlag,
            publishedAt: g.published ? new Date(NOW - 3_600_000) : null,
            endsAt: g.endsAt ? g.endsAt(now) : null,
          }))
          const expected = states.map((s) => ({
            open: doorRefusal(s, now) === null,
            owner: doorAgent(s),
            shares: sharesWithListingAgent(s),
          }))
          expect(await inSql(states, now)).toEqual(expected)
        },
      ),
      { numRuns: 200 },
    )
  })
})
