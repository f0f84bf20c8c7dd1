import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makeAgent, makeUser } from '../support/factories.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

const db = () => database.handle.db

async function makeProperty() {
  return db()
    .insertInto('reProperty')
    .values({
      propertyAddress1: '12 Porch Lane',
      propertyCity: 'Roswell',
      propertyState: 'Georgia',
      propertyZipCode: '30075',
      propertyCountry: 'United States',
      propertyType: 'Single Family Home',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

async function makeOpenHouse(propertyId: number, listingId: number, date: string) {
  return db()
    .insertInto('openHouse')
    .values({
      rePropertyId: propertyId,
      listingReAgentId: listingId,
      scheduledByReAgentId: listingId,
      openHouseFor: 'Sale',
      scheduledDate: date,
      scheduledStartTime: '1:00 PM',
      scheduledEndTime: '3:00 PM',
      publishLevel: 'Open To All',
      publishLevelId: '-1',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

describe('database constraints', () => {
  it('keeps user emails unique regardless of case', async () => {
    await makeUser(db(), { email: 'Jo@Example.com' })
    await expect(makeUser(db(), { email: 'jo@example.com' })).rejects.toThrow(/unique/)
  })

  it('rejects a label outside a fixed list', async () => {
    const { agent } = await makeAgent(db())
    const property = await makeProperty()
    await expect(
      db()
        .insertInto('openHouse')
        .values({
          rePropertyId: property.id,
          listingReAgentId: agent.id,
          scheduledByReAgentId: agent.id,
          openHouseFor: 'Sale',
          scheduledStartTime: '1:00 PM',
          scheduledEndTime: '3:00 PM',
          publishLevel: 'Everyone Everywhere' as never,
          publishLevelId: '-1',
        })
        .execute(),
    ).rejects.toThrow(/check constraint/)
  })

  it('allows one non-canceled open house per property and date', async () => {
    const { agent } = await makeAgent(db())
    const property = await makeProperty()
    const first = await makeOpenHouse(property.id, agent.id, '2027-03-06')
    await expect(makeOpenHouse(property.id, agent.id, '2027-03-06')).rejects.toThrow(/unique/)
    await db()
      .updateTable('openHouse')
      .set({ openHouseCanceledFlag: true, openHouseCancelReason: 'Other' })
      .where('id', '=', first.id)
      .execute()
    await expect(makeOpenHouse(property.id, agent.id, '2027-03-06')).resolves.toBeTruthy()
  })

  it('records an agent-added prospect once per open house, a sign-in once per request id, and one feedback per visit', async () => {
    const { agent } = await makeAgent(db())
    const property = await makeProperty()
    const openHouse = await makeOpenHouse(property.id, agent.id, '2027-04-10')
    const prospect = await db()
      .insertInto('prospect')
      .values({
        prospectFirstName: 'Sam',
        prospectLastName: 'Visitor',
        prospectEmailId: 'sam@example.com',
        prospectPhoneNumber: '4045550111',
        createdByReAgentId: agent.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    // An agent adds a prospect to an open house once; a guest's visits each have a sign-in id of their own.
    const attend = () =>
      db()
        .insertInto('openHouseAttendee')
        .values({ openHouseId: openHouse.id, prospectId: prospect.id })
        .returning('id')
        .executeTakeFirstOrThrow()
    const visit = await attend()
    await expect(attend()).rejects.toThrow(/unique/)
    const requestId = '0b7c6f5e-3f5a-4b8e-9f57-2d3f3c1a8e11'
    const signIn = () =>
      db()
        .insertInto('openHouseAttendee')
        .values({ openHouseId: openHouse.id, prospectId: prospect.id, clientRequestId: requestId })
        .execute()
    await signIn()
    await expect(signIn()).rejects.toThrow(/unique/)
    // One feedback per visit.
    const feedback = () =>
      db()
        .insertInto('openHouseFeedback')
        .values({ openHouseId: openHouse.id, prospectId: prospect.id, attendeeId: visit.id, kitchen: 5 })
        .execute()
    await feedback()
    await expect(feedback()).rejects.toThrow(/unique/)
    await expect(
      sql`update open_house_feedback set kitchen = 6 where prospect_id = ${prospect.id}`.execute(db()),
    ).rejects.toThrow(/check constraint/)
  })

  it('allows one team per type per lead and one membership per agent and team', async () => {
    const { agent: lead } = await makeAgent(db(), { role: 'Team Lead' })
    const { agent: member } = await makeAgent(db())
    const team = () =>
      db()
        .insertInto('reTeam')
        .values({
          reTeamName: 'North',
          teamType: 'Real Estate Team',
          reTeamLeadId: lead.id,
          createdByReAgentId: lead.id,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    const created = await team()
    await expect(team()).rejects.toThrow(/unique/)
    const join = () =>
      db()
        .insertInto('reTeamMember')
        .values({ reTeamId: created.id, reAgentId: member.id, addedByReAgentId: lead.id })
        .execute()
    await join()
    await expect(join()).rejects.toThrow(/unique/)
  })
})
