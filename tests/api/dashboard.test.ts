import { randomBytes } from 'node:crypto'
import { type DashboardOverview, todayIn } from '@porchlight/shared'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent, makeTeam } from '../support/factories.ts'
import { scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

let t: TestApp
const firm = `DASH-${randomBytes(4).toString('hex')}`
let ann: Agent
let bob: Agent
let lead: Agent
let pending: Agent
const ids: Record<string, number> = {}

const overviewPath = (who: Agent, query = '') => `/openhousemgmt/getDashboardOverview/${who.agent.id}${query}`
async function overviewOf(who: Agent, query = ''): Promise<DashboardOverview> {
  const res = await t.call('GET', overviewPath(who, query), { token: who.token })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.data
}

/** Moves an open house to another day (a past one cannot be scheduled through the API). */
async function moveTo(id: number, date: string, endsAt?: Date) {
  await t.db
    .updateTable('openHouse')
    .set({ scheduledDate: date, startsAt: null, endsAt: endsAt ?? null })
    .where('id', '=', id)
    .execute()
}

async function prospect(owner: Agent, name: string, fields: { realtor?: boolean; followUp?: string } = {}) {
  const row = await t.db
    .insertInto('prospect')
    .values({
      prospectFirstName: name,
      prospectLastName: 'Guest',
      prospectEmailId: `${name.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`,
      prospectPhoneNumber: '4045550123',
      workingWithReAgentFlag: fields.realtor ?? false,
      createdByReAgentId: owner.agent.id,
      nextFollowUpDate: fields.followUp ?? null,
      prospectStage: fields.followUp ? 'Contacted' : 'New',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function visit(
  openHouseId: number,
  prospectId: number,
  overallExperience?: number,
  signedInDaysAgo = 0,
) {
  const createdDate = new Date(Date.now() - signedInDaysAgo * 86_400_000)
  await t.db.insertInto('openHouseAttendee').values({ openHouseId, prospectId, createdDate }).execute()
  if (overallExperience !== undefined) {
    await t.db
      .insertInto('openHouseFeedback')
      .values({ openHouseId, prospectId, overallExperience })
      .execute()
  }
}

/**
 * Ann of firm DASH-…; Bob and the Team Lead Lee of the same firm; Pat asks to join the firm.
 *   soon      Ann, Hosting Myself, in 2 days                  Hosted by Ann
 *   offered   Ann, Open To All, claimed by Bob, in 3 days     Hosted by Bob
 *   open      Ann, Open To All, in 4 days, not claimed         Not Hosted
 *   canceled  Ann, in 5 days, canceled                         Canceled
 *   bobs      Bob's, claimed by Ann, in 6 days                 Hosted by Ann
 *   far       Ann, in 9 days                                   (not this week)
 *   ended     Ann, today, ended an hour ago                     (not next)
 *   recent    Ann, 2 days ago: guests g1 (realtor), g2, g3; feedback 4 and 5 (this week)
 *   older     Ann, 10 days ago: guest g4 then; feedback 2 (the week before last); guest g6 added
 *             yesterday (a lead of this week: leads count by when they signed in)
 *   ancient   Ann, 60 days ago: guest g5 then; feedback 1 (before the trend)
 */
beforeAll(async () => {
  t = await buildTestApp()
  ann = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ann', lastName: 'Adams' })
  bob = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Bob', lastName: 'Brown' })
  lead = await makePlannedAgent(t.db, {
    brokerFirmLicense: firm,
    firstName: 'Lee',
    lastName: 'Lead',
    role: 'Team Lead',
  })
  pending = await makePlannedAgent(t.db, {
    brokerFirmLicense: firm,
    firstName: 'Pat',
    lastName: 'Pending',
    firmStatus: 'pending',
  })

  ids.soon = (
    await scheduleOpenHouse(t, ann, { publishLevel: 'Hosting Myself', scheduledDate: daysFromNow(2) })
  ).id
  ids.offered = (await scheduleHostedBy(t, ann, bob)).id
  ids.open = (await scheduleOpenHouse(t, ann, { scheduledDate: daysFromNow(4) })).id
  ids.canceled = (await scheduleOpenHouse(t, ann, { scheduledDate: daysFromNow(5) })).id
  const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
    token: ann.token,
    body: { openHouseId: ids.canceled, openHouseCancelReason: 'Other', openHouseCanceledFlag: 'true' },
  })
  expect(canceled.status).toBe(200)
  ids.bobs = (await scheduleHostedBy(t, bob, ann)).id
  await moveTo(ids.bobs, daysFromNow(6))
  ids.far = (await scheduleOpenHouse(t, ann, { scheduledDate: daysFromNow(9) })).id
  ids.ended = (await scheduleOpenHouse(t, ann)).id
  await moveTo(ids.ended, daysFromNow(0), new Date(Date.now() - 3_600_000))

  ids.recent = (await scheduleOpenHouse(t, ann)).id
  await moveTo(ids.recent, daysFromNow(-2), new Date(Date.now() - 2 * 86_400_000))
  await visit(ids.recent, await prospect(ann, 'Gail', { realtor: true }), 4)
  await visit(ids.recent, await prospect(ann, 'Gus'), 5)
  await visit(ids.recent, await prospect(ann, 'Gwen'))
  ids.older = (await scheduleOpenHouse(t, ann)).id
  await moveTo(ids.older, daysFromNow(-10))
  await visit(ids.older, await prospect(ann, 'Gene'), 2, 10)
  await visit(ids.older, await prospect(ann, 'Hal'), undefined, 1)
  ids.ancient = (await scheduleOpenHouse(t, ann)).id
  await moveTo(ids.ancient, daysFromNow(-60))
  await visit(ids.ancient, await prospect(ann, 'Gil'), 1, 60)

  // Follow-ups: Ann's overdue, today, in 7 and in 8 days, none; Bob's due today.
  ids.overdue = await prospect(ann, 'Olga', { followUp: daysFromNow(-3) })
  ids.dueToday = await prospect(ann, 'Tara', { followUp: daysFromNow(0) })
  ids.dueInAWeek = await prospect(ann, 'Wes', { followUp: daysFromNow(7) })
  await prospect(ann, 'Later', { followUp: daysFromNow(8) })
  await prospect(bob, 'Bobs', { followUp: daysFromNow(0) })

  // Lee's team invites Ann (not answered) and has Bob (accepted).
  const teamId = await makeTeam(t.db, lead, [bob])
  ids.team = teamId
  await t.db
    .insertInto('reTeamMember')
    .values({ reTeamId: teamId, reAgentId: ann.agent.id, addedByReAgentId: lead.agent.id })
    .execute()
})
afterAll(() => t?.close())

describe('the dashboard overview', () => {
  it('lists the open houses of the coming week the agent lists or hosts, soonest first, with status and host', async () => {
    const { today, nextOpenHouses } = await overviewOf(ann)
    expect(today).toBe(daysFromNow(0))
    expect(nextOpenHouses.total).toBe(5)
    expect(
      nextOpenHouses.items.map((oh) => [oh.id, oh.scheduledDate, oh.status, oh.hostingREAgentFullName]),
    ).toEqual([
      [ids.soon, daysFromNow(2), 'Hosted', 'Ann Adams'],
      [ids.offered, daysFromNow(3), 'Hosted', 'Bob Brown'],
      [ids.open, daysFromNow(4), 'Not Hosted', null],
      [ids.canceled, daysFromNow(5), 'Canceled', null],
      [ids.bobs, daysFromNow(6), 'Hosted', 'Ann Adams'],
    ])
    expect(nextOpenHouses.items[4]?.listingREAgentFullName).toBe('Bob Brown')
    expect(nextOpenHouses.items[0]?.completePropertyAddress).toMatch(/Lantern Way, Alpharetta/)
  })

  it("counts this week's guests at the agent's open houses, and those without a realtor", async () => {
    const { leadsThisWeek } = await overviewOf(ann)
    // By when they signed in (Hal, added yesterday to an open house of 10 days ago, is this week's).
    expect(leadsThisWeek).toEqual({ from: daysFromNow(-6), to: daysFromNow(0), total: 4, withoutRealtor: 3 })
    // Bob hosts none of those open houses: his week has no guests.
    expect((await overviewOf(bob)).leadsThisWeek.total).toBe(0)
  })

  it('gives six weeks of feedback, oldest first, with the rounded average Overall Experience', async () => {
    const { feedbackTrend } = await overviewOf(ann)
    expect(feedbackTrend).toHaveLength(6)
    expect(feedbackTrend[5]).toEqual({
      weekStart: daysFromNow(-6),
      weekEnd: daysFromNow(0),
      count: 2,
      averageOverallExperience: 5,
    })
    expect(feedbackTrend[4]).toMatchObject({
      weekStart: daysFromNow(-13),
      count: 1,
      averageOverallExperience: 2,
    })
    expect(feedbackTrend[0]).toMatchObject({
      weekStart: daysFromNow(-41),
      count: 0,
      averageOverallExperience: null,
    })
    expect(feedbackTrend.reduce((sum, w) => sum + w.count, 0)).toBe(3)
  })

  it("shows the follow-ups overdue or due within 7 days, soonest first, the agent's own only", async () => {
    const { followUpsDue } = await overviewOf(ann)
    expect(followUpsDue.total).toBe(3)
    expect(followUpsDue.items).toEqual([
      {
        prospectId: ids.overdue,
        prospectFullName: 'Olga Guest',
        nextFollowUpDate: daysFromNow(-3),
        prospectStage: 'Contacted',
        overdue: true,
      },
      expect.objectContaining({ prospectId: ids.dueToday, overdue: false }),
      expect.objectContaining({ prospectId: ids.dueInAWeek, nextFollowUpDate: daysFromNow(7) }),
    ])
  })

  it('shows team invitations waiting for the agent, and firm requests only to who decides on them', async () => {
    const annView = await overviewOf(ann)
    expect(annView.pendingRequests.teamInvitations).toEqual([
      expect.objectContaining({ reTeamId: ids.team, reTeamLeadFullName: 'Lee Lead' }),
    ])
    // Ann is a Real Estate Agent: joining the firm is not hers to decide.
    expect(annView.pendingRequests.firmMembers).toBeNull()
    const leadView = await overviewOf(lead)
    expect(leadView.pendingRequests.teamInvitations).toEqual([])
    expect(leadView.pendingRequests.firmMembers).toEqual({
      items: [expect.objectContaining({ reAgentId: pending.agent.id, reAgentFullName: 'Pat Pending' })],
      total: 1,
    })
    expect((await overviewOf(bob)).pendingRequests.teamInvitations).toEqual([])
  })

  it("counts today in the agent's time zone", async () => {
    const zone = 'Pacific/Kiritimati'
    const { today, leadsThisWeek } = await overviewOf(ann, `?timeZone=${encodeURIComponent(zone)}`)
    expect(today).toBe(todayIn(zone))
    expect(leadsThisWeek.to).toBe(today)
    const bad = await t.call('GET', overviewPath(ann, '?timeZone=Mars%2FOlympus'), { token: ann.token })
    expect(bad.status).toBeGreaterThanOrEqual(400)
    expect(bad.status).toBeLessThan(500)
  })

  it("is the agent's own: another agent gets 403, no session 403 SESSION_EXPIRED", async () => {
    const other = await t.call('GET', overviewPath(ann), { token: bob.token })
    expect(other.status).toBe(403)
    expect(other.body.error.code).toBe('FORBIDDEN')
    const none = await t.call('GET', overviewPath(ann))
    expect(none.status).toBe(403)
    expect(none.body.error.code).toBe('SESSION_EXPIRED')
  })

  it('reads the open houses of the window through the agent-and-date indexes, not its whole history', async () => {
    // Years of Ann's past open houses (copies of an old one): the window must not read them.
    await sql`
      insert into open_house (re_property_id, listing_re_agent_id, scheduled_by_re_agent_id, open_house_for,
        scheduled_date, scheduled_start_time, scheduled_end_time, publish_level, publish_level_id)
      select re_property_id, listing_re_agent_id, scheduled_by_re_agent_id, open_house_for,
        current_date - 100 - g, scheduled_start_time, scheduled_end_time, publish_level, publish_level_id
      from open_house, generate_series(1, 3000) g where id = ${ids.older}`.execute(t.db)
    await sql`analyze open_house`.execute(t.db)
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain select id from open_house
      where (listing_re_agent_id = ${ann.agent.id} or hosting_re_agent_id = ${ann.agent.id})
        and scheduled_date >= ${daysFromNow(0)}::date and scheduled_date <= ${daysFromNow(6)}::date`.execute(
      t.db,
    )
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    expect(plan).toContain('open_house_listing_agent_date_idx')
    expect(plan).toContain('open_house_hosting_agent_date_idx')
    expect((await overviewOf(ann)).nextOpenHouses.total).toBe(5)
  })
})
