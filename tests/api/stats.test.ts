import { randomBytes } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { acceptTeam, makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

let t: TestApp
const firm = `FIRM-${randomBytes(4).toString('hex')}`
let lead: Agent
let ann: Agent
let bob: Agent
let outsider: Agent
let teamId: number

const get = (who: Agent, path: string) => t.call('GET', path, { token: who.token })

async function ok(res: Promise<{ status: number; body: unknown }>) {
  const answer = await res
  if (answer.status >= 300) throw new Error(JSON.stringify(answer.body))
  return answer
}

async function prospect(owner: Agent, workingWithReAgentFlag: boolean) {
  return t.db
    .insertInto('prospect')
    .values({
      prospectFirstName: 'Pat',
      prospectLastName: `Visitor${randomBytes(3).toString('hex')}`,
      prospectEmailId: `pat-${randomBytes(4).toString('hex')}@example.com`,
      prospectPhoneNumber: '4045550123',
      workingWithReAgentFlag,
      createdByReAgentId: owner.agent.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

async function attend(openHouse: { id: number }, ...prospects: Array<{ id: number }>) {
  await t.db
    .insertInto('openHouseAttendee')
    .values(prospects.map((p) => ({ openHouseId: openHouse.id, prospectId: p.id })))
    .execute()
}

const claim = (oh: { id: number }, who: Agent) =>
  ok(t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${who.agent.id}`, { token: who.token }))
const cancel = (oh: { id: number }, who: Agent) =>
  ok(
    t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: who.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: 'true' },
    }),
  )

/**
 * Team "Closers": lead L with members Ann and Bob, all of one firm; an outsider of another firm.
 *   oh1  Ann, Hosting Myself                      visitors p1, p2
 *   oh2  Ann, Open To All, claimed by Bob         visitors p2, p3
 *   oh3  Ann, canceled
 *   oh4  Ann, Market Center, on offer             visitor p4
 *   oh5  Bob, Hosting Myself                      visitor p1
 *   oh6  Ann, Open To All, claimed by Bob, then canceled
 *   oh7  L, Real Estate Team, claimed by Ann      visitor p5
 *   ohX  the outsider, Hosting Myself             visitor pX
 * p1 and p5 work with a realtor; p2, p3, p4 and pX do not.
 */
beforeAll(async () => {
  t = await buildTestApp()
  lead = await makePlannedAgent(
    t.db,
    { role: 'Team Lead', brokerFirmLicense: firm, firstName: 'Lee', lastName: 'Lead' },
    'Team',
  )
  ann = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ann', lastName: 'Adams' })
  bob = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Bob', lastName: 'Brown' })
  outsider = await makePlannedAgent(t.db, { brokerFirmLicense: `${firm}-X` })

  const team = await ok(
    t.call('POST', '/reteammgmt/saveRETeam', {
      token: lead.token,
      body: { reTeamName: 'Closers', teamType: 'Real Estate Team' },
    }),
  )
  teamId = (team.body as { data: { id: number } }).data.id
  for (const member of [bob, ann]) {
    await ok(
      t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: teamId, reAgentId: member.agent.id },
      }),
    )
    await acceptTeam(t, member, teamId)
  }

  const oh1 = await scheduleOpenHouse(t, ann, { publishLevel: 'Hosting Myself' })
  const oh2 = await scheduleOpenHouse(t, ann)
  await ok(publish(t, ann, oh2.id))
  await claim(oh2, bob)
  const oh3 = await scheduleOpenHouse(t, ann)
  await cancel(oh3, ann)
  const oh4 = await scheduleOpenHouse(t, ann, { publishLevel: 'Market Center' })
  await ok(publish(t, ann, oh4.id, 'Market Center'))
  const oh5 = await scheduleOpenHouse(t, bob, { publishLevel: 'Hosting Myself' })
  const oh6 = await scheduleOpenHouse(t, ann)
  await ok(publish(t, ann, oh6.id))
  await claim(oh6, bob)
  await cancel(oh6, ann)
  const oh7 = await scheduleOpenHouse(t, lead, { publishLevel: 'Real Estate Team' })
  await ok(publish(t, lead, oh7.id, 'Real Estate Team'))
  await claim(oh7, ann)
  const ohX = await scheduleOpenHouse(t, outsider, { publishLevel: 'Hosting Myself' })

  const [p1, p2, p3, p4, p5, pX] = await Promise.all([
    prospect(ann, true),
    prospect(ann, false),
    prospect(bob, false),
    prospect(ann, false),
    prospect(lead, true),
    prospect(outsider, false),
  ])
  await attend(oh1, p1, p2)
  await attend(oh2, p2, p3)
  await attend(oh4, p4)
  await attend(oh5, p1)
  await attend(oh7, p5)
  await attend(ohX, pX)
})
afterAll(() => t.close())

const summary = (
  who: Agent,
  name: string,
  [listed, hosted, canceled, leads, withoutRealtor]: [number, number, number, number, number],
) => ({
  totalListedOpenHouses: listed,
  totalHostedOpenHouses: hosted,
  totalCanceleddOpenHouses: canceled,
  totalVisitedProspects: leads,
  totalVisitedProspectsWithoutRealtor: withoutRealtor,
  reAgentFullName: name,
  reAgentId: who.agent.id,
})

// Listed, hosted (not canceled), canceled listings, distinct visitors of listed or hosted open houses,
// and of those the ones without a realtor.
const annStats = () => summary(ann, 'Ann Adams', [5, 2, 2, 5, 3])
const bobStats = () => summary(bob, 'Bob Brown', [1, 2, 0, 3, 2])
const leadStats = () => summary(lead, 'Lee Lead', [1, 0, 0, 1, 0])

describe('an agent’s statistics', () => {
  it('counts listed, hosted, canceled, leads and leads without realtor from the rows', async () => {
    for (const [who, expected] of [
      [ann, annStats()],
      [bob, bobStats()],
      [lead, leadStats()],
    ] as const) {
      const res = await get(who, `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${who.agent.id}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual(expected)
    }
  })

  it('shows an agent its own statistics only', async () => {
    const res = await get(bob, `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${ann.agent.id}`)
    expect(res.status).toBe(403)
    expect((await get(bob, `/openhousemgmt/getDashboardStatistics/${ann.agent.id}`)).status).toBe(403)
  })

  it('needs a valid license', async () => {
    const invalid = await makePlannedAgent(t.db, { brokerFirmLicense: firm, licenseValid: false })
    const res = await get(invalid, `/openhousemgmt/getDashboardStatistics/${invalid.agent.id}`)
    expect(res.status).toBe(403)
    expect(res.body.error).toEqual({ code: 'LICENSE_INVALID', message: messages.licenseNotValid })
  })

  it('counts only the agent’s own rows, and answers zeros for an agent with none', async () => {
    const res = await get(outsider, `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${outsider.agent.id}`)
    expect(res.body.data).toMatchObject({
      totalListedOpenHouses: 1,
      totalHostedOpenHouses: 1,
      totalCanceleddOpenHouses: 0,
      totalVisitedProspects: 1,
      totalVisitedProspectsWithoutRealtor: 1,
    })
    const fresh = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Nia', lastName: 'New' })
    const none = await get(fresh, `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${fresh.agent.id}`)
    expect(none.body.data).toEqual(summary(fresh, 'Nia New', [0, 0, 0, 0, 0]))
  })
})

describe('the dashboard', () => {
  it('gives a Team Lead the overall summary and a row per person of each team it leads', async () => {
    const res = await get(lead, `/openhousemgmt/getDashboardStatistics/${lead.agent.id}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      overall: leadStats(),
      teamSummaries: [
        { reTeamId: teamId, reTeamName: 'Closers', members: [leadStats(), annStats(), bobStats()] },
      ],
    })
  })

  it('gives other roles the overall summary only, even as team members', async () => {
    const res = await get(ann, `/openhousemgmt/getDashboardStatistics/${ann.agent.id}`)
    expect(res.body.data).toEqual({ overall: annStats(), teamSummaries: [] })
  })
})

describe('team statistics', () => {
  it('lists a row per person of the team under both names, for the team’s people only', async () => {
    for (const path of [
      `/openhousemgmt/getOHStatisticsSummaryByTeamMembers/${teamId}`,
      `/reteammgmt/getRETeamMemberSummary/${teamId}`,
    ]) {
      const res = await get(bob, path)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([leadStats(), annStats(), bobStats()])
      expect((await get(outsider, path)).status).toBe(404)
    }
  })

  it('sums the team as a whole, counting an open house or a visitor two of its people share once', async () => {
    const res = await get(ann, `/reteammgmt/getRETeamSummary/${teamId}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      reTeamId: teamId,
      reTeamName: 'Closers',
      totalListedOpenHouses: 7,
      totalHostedOpenHouses: 4,
      totalCanceleddOpenHouses: 2,
      totalVisitedProspects: 5,
      totalVisitedProspectsWithoutRealtor: 3,
    })
    expect((await get(outsider, `/reteammgmt/getRETeamSummary/${teamId}`)).status).toBe(404)
  })
})

describe('statistics by publish level', () => {
  it('counts the open houses offered to the caller’s firm (Market Center)', async () => {
    const res = await get(bob, `/openhousemgmt/getOHStatisticsSummaryByPublishLevelId/${firm}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      publishLevelId: firm,
      totalListedOpenHouses: 1,
      totalHostedOpenHouses: 0,
      totalCanceleddOpenHouses: 0,
      totalVisitedProspects: 1,
      totalVisitedProspectsWithoutRealtor: 1,
    })
  })

  it('counts the open houses offered to a team the caller belongs to', async () => {
    const res = await get(bob, `/openhousemgmt/getOHStatisticsSummaryByPublishLevelId/${teamId}`)
    expect(res.body.data).toEqual({
      publishLevelId: String(teamId),
      totalListedOpenHouses: 1,
      totalHostedOpenHouses: 1,
      totalCanceleddOpenHouses: 0,
      totalVisitedProspects: 1,
      totalVisitedProspectsWithoutRealtor: 0,
    })
  })

  it('refuses another firm, a team the caller is not part of, and the open market', async () => {
    for (const id of [firm, String(teamId), '-1', '0']) {
      const res = await get(outsider, `/openhousemgmt/getOHStatisticsSummaryByPublishLevelId/${id}`)
      // One answer for "not yours": a level the caller may not see does not exist for it.
      expect(res.status).toBe(404)
    }
  })
})
