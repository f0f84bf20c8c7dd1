import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { collect, connectSocket } from '../support/socket.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe("a Team Lead's live numbers", () => {
  it("hear of a member's new open house and guest, and not of agents outside the team", async () => {
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: 'FIRM-LIVE-STATS' })
    const member = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-LIVE-STATS' })
    const outsider = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-ELSE' })
    const team = await t.db
      .insertInto('reTeam')
      .values({
        reTeamName: 'Live',
        teamType: 'Real Estate Team',
        reTeamLeadId: lead.agent.id,
        createdByReAgentId: lead.agent.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .insertInto('reTeamMember')
      .values({
        reTeamId: team.id,
        reAgentId: member.agent.id,
        addedByReAgentId: lead.agent.id,
        invitationStatus: 'accepted',
      })
      .execute()
    const socket = await connectSocket(t.url, { token: lead.token })
    const heard = collect(socket, 'stats.changed')
    try {
      const mine = await scheduleOpenHouse(t, member, { publishLevel: 'Hosting Myself' })
      await expect.poll(() => heard.length).toBeGreaterThanOrEqual(1)
      const before = heard.length
      await t.call('POST', '/public/saveProspect', {
        body: {
          prospectFirstName: 'Sam',
          prospectLastName: 'Guest',
          prospectEmailId: `sam-${randomUUID().slice(0, 6)}@example.com`,
          prospectPhoneNumber: '404 555 0100',
          openHouseId: mine.id,
          clientRequestId: randomUUID(),
        },
      })
      await expect.poll(() => heard.length).toBeGreaterThan(before)

      const elsewhere = await scheduleOpenHouse(t, outsider)
      await publish(t, outsider, elsewhere.id)
      const quiet = heard.length
      await new Promise((r) => setTimeout(r, 300))
      expect(heard.length).toBe(quiet)
    } finally {
      socket.close()
    }
  })
})
