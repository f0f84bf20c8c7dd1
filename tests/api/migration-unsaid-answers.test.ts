import { createMigrator } from '@porchlight/server/src/db/migrate.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { migrationsDir } from '../support/global-setup.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Migration 202611290007 (decision 038): a stored false was a "No" or a skip. It becomes "not said"
// only where the prospect's first sign-in recorded a skip and no agent edited it since; every other
// false stays "No", and the kept statistics follow.

const MIGRATION = '202611290007-record-unsaid-answers-and-verification-requests'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

async function migrateTo(target: 'before' | 'latest') {
  const migrator = createMigrator(t.db, migrationsDir)
  if (target === 'latest') {
    const { error } = await migrator.migrateToLatest()
    if (error) throw error
    return
  }
  const names = (await migrator.getMigrations()).map((m) => m.name)
  const { error } = await migrator.migrateTo(names[names.indexOf(MIGRATION) - 1] as string)
  if (error) throw error
}

describe('keeping unsaid answers apart from "No"', () => {
  it('turns back into null the falses of skipped sign-ins only, and the statistics with them', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const signIn = async (first: string, flag: 'true' | 'false' | null) => {
      const res = await t.call('POST', '/public/saveProspect', {
        body: guestFields(oh.id, { prospectFirstName: first, workingWithREAgentFlag: flag }),
      })
      if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    }
    await signIn('Skipped', null)
    await signIn('Said-no', 'false')
    await signIn('Said-yes', 'true')
    await signIn('Skipped-then-edited', null)
    const typed = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: listing.token,
      body: {
        prospectFirstName: 'Typed-by-agent',
        prospectLastName: 'Lead',
        prospectEmailId: 'typed-by-agent@example.com',
        prospectPhoneNumber: '404 555 0100',
        openHouseId: oh.id,
      },
    })
    expect(typed.status).toBe(201)

    // The schema before: every unsaid answer is stored false, as it was.
    await migrateTo('before')
    const flags = async () =>
      Object.fromEntries(
        (
          await sql<{ name: string; flag: boolean | null }>`
            select prospect_first_name as name, working_with_re_agent_flag as flag from prospect
            where created_by_re_agent_id = ${listing.agent.id}`.execute(t.db)
        ).rows.map((r) => [r.name, r.flag]),
      )
    expect(await flags()).toEqual({
      Skipped: false,
      'Said-no': false,
      'Said-yes': true,
      'Skipped-then-edited': false,
      'Typed-by-agent': false,
    })
    // An agent touched this one since: its false may be the agent's "No".
    await sql`update prospect set updated_date = updated_date + interval '1 minute'
      where prospect_first_name = 'Skipped-then-edited' and created_by_re_agent_id = ${listing.agent.id}`.execute(
      t.db,
    )
    const without = async () =>
      (
        await t.call('GET', `/openhousemgmt/getDashboardStatistics/${listing.agent.id}`, {
          token: listing.token,
        })
      ).body.data.overall.totalVisitedProspectsWithoutRealtor
    // Read as kept: today's API folds visits first (202612010090), which the schema before cannot.
    const keptBefore = await sql<{ n: number }>`
      select visited_prospects_without_realtor::int as n from agent_statistics_now
      where re_agent_id = ${listing.agent.id}`.execute(t.db)
    expect(keptBefore.rows[0]?.n).toBe(4)

    await migrateTo('latest')
    expect(await flags()).toEqual({
      Skipped: null,
      'Said-no': false,
      'Said-yes': true,
      'Skipped-then-edited': false,
      'Typed-by-agent': false,
    })
    expect(await without()).toBe(3)
    // The kept figures match a recount from the rows.
    const kept = await sql<{ n: number }>`
      select visited_prospects_without_realtor::int as n from agent_statistics_now
      where re_agent_id = ${listing.agent.id}`.execute(t.db)
    await sql`select stats_rebuild_all()`.execute(t.db)
    const rebuilt = await sql<{ n: number }>`
      select visited_prospects_without_realtor::int as n from agent_statistics_now
      where re_agent_id = ${listing.agent.id}`.execute(t.db)
    expect(kept.rows[0]?.n).toBe(3)
    expect(rebuilt.rows[0]?.n).toBe(3)
  })
})
