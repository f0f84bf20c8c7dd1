import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createMigrator } from '@porchlight/server/src/db/migrate.ts'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { migrationsDir } from '../support/global-setup.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Migration 202611290002 (decision 029) moves a sign-in's request id, a guest token and feedback from
// the prospect to its visit. What was stored before it must keep working: a token a phone holds still
// opens its visit's feedback, and a retry of a sign-in made before is still answered with its visit.

const MIGRATION = '202611290002-bind-guest-tokens-to-visits'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

async function migrateTo(target: 'before' | 'it') {
  const migrator = createMigrator(t.db, migrationsDir)
  const names = (await migrator.getMigrations()).map((m) => m.name)
  const at = names.indexOf(MIGRATION)
  const { error } = await migrator.migrateTo(target === 'it' ? MIGRATION : (names[at - 1] as string))
  if (error) throw error
  return migrator
}

describe('binding guest tokens to visits', () => {
  it("carries a prospect's request id, its tokens and its feedback over to its one visit", async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const first = guestFields(oh.id)
    const signedIn = await t.call('POST', '/public/saveProspect', { body: first })
    expect(signedIn.status).toBe(201)
    const visitId: number = signedIn.body.data.id
    const { prospectId } = await t.db
      .selectFrom('openHouseAttendee')
      .select('prospectId')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow()

    // Back to the schema before: the sign-in as it was then stored, with a token and feedback.
    await migrateTo('before')
    const token = randomBytes(32).toString('base64url')
    const hash = createHash('sha256').update(token).digest('hex')
    await sql`update prospect set client_request_id = ${first.clientRequestId} where id = ${prospectId}`.execute(
      t.db,
    )
    await sql`insert into guest_token (token_hash, prospect_id, open_house_id)
      values (${hash}, ${prospectId}, ${oh.id})`.execute(t.db)
    await sql`insert into open_house_feedback (open_house_id, prospect_id, kitchen, feedback_text)
      values (${oh.id}, ${prospectId}, 5, 'Great house')`.execute(t.db)

    const migrator = await migrateTo('it')
    const { error } = await migrator.migrateToLatest()
    if (error) throw error

    const visit = await t.db
      .selectFrom('openHouseAttendee')
      .select(['id', 'clientRequestId'])
      .where('openHouseId', '=', oh.id)
      .execute()
    expect(visit).toEqual([{ id: visitId, clientRequestId: first.clientRequestId }])
    const kept = await t.db
      .selectFrom('guestToken')
      .select('attendeeId')
      .where('tokenHash', '=', hash)
      .executeTakeFirstOrThrow()
    expect(kept.attendeeId).toBe(visitId)
    const [feedback] = await t.db
      .selectFrom('openHouseFeedback')
      .select(['id', 'attendeeId'])
      .where('openHouseId', '=', oh.id)
      .execute()
    expect(feedback?.attendeeId).toBe(visitId)

    // The token the phone kept still edits that visit's feedback; a retry of the sign-in finds its visit.
    const edited = await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${feedback?.id}`, {
      body: {
        openHouseId: oh.id,
        prospectId: visitId,
        guestToken: token,
        ...Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, ''])),
        kitchen: 4,
        feedbackText: 'Great house, small kitchen',
      },
    })
    expect(edited.status).toBe(200)
    const retried = await t.call('POST', '/public/saveProspect', { body: first })
    expect(retried.status).toBe(201)
    expect(retried.body.data.id).toBe(visitId)
    // A new sign-in of the same email is a visit of its own.
    const again = await t.call('POST', '/public/saveProspect', {
      body: { ...first, clientRequestId: randomUUID() },
    })
    expect(again.status).toBe(201)
    expect(again.body.data.id).not.toBe(visitId)
  })
})
