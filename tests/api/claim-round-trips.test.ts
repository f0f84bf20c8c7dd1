import { createAccess } from '@porchlight/server/src/policy/access.ts'
import type { Actor } from '@porchlight/shared'
import { describe, expect, it } from 'vitest'
import { apiCaller } from '../support/api.ts'
import { withRoundTripsCounted } from '../support/counting-relay.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

// Issue 38: in the field an agent claiming an offer has not been seen in the last few seconds, so the
// API does not keep its session: the claim must find it. Its session, its agent and what the policy
// decides on (its teams) are read in one statement, then the claim is one statement. The API here
// reaches PostgreSQL through a relay that counts what the API writes to it: each write is a round trip.

const made = withRoundTripsCounted()

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

describe('a claim by an agent whose session is not kept', () => {
  it('reads its session, agent and teams in one round trip, then claims in one', async () => {
    const { t, counted } = made
    const call = apiCaller(counted.url)
    // Offered to a team: a claim reaches the house only through the teams read with the session.
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead' })
    const members: Agent[] = []
    for (let i = 0; i < 4; i++) members.push(await makePlannedAgent(t.db))
    await makeTeam(t.db, lead, members)
    const outsider = await makePlannedAgent(t.db)
    // Scheduled and offered through the counting API too: the claim is not its first request.
    const through = { ...t, call }
    const oh = await scheduleOpenHouse(through, lead)
    expect((await publish(through, lead, oh.id, 'Real Estate Team')).status).toBe(200)

    /** A claim's status and the round trips it made; what followed the answer is let finish first. */
    const claim = async (agent: Agent) => {
      await counted.settled()
      const before = counted.writes.count
      const res = await call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${agent.agent.id}`, {
        token: agent.token,
      })
      return { status: res.status, trips: counted.writes.atAnswer - before }
    }
    const [winner, loser, other] = members as [Agent, Agent, Agent]
    // Each agent's first request to this API: its session is not kept.
    const won = await claim(winner)
    expect(won.status).toBe(200)
    const lost = await claim(loser)
    expect(lost).toEqual({ status: 409, trips: 2 })
    // Not offered to the outsider: refused from the row the claim statement answered, as before.
    expect(await claim(outsider)).toEqual({ status: 404, trips: 2 })
    // Kept now: the claim alone.
    expect(await claim(loser)).toEqual({ status: 409, trips: 1 })
    expect((await claim(other)).trips).toBe(2)
    // The winner's own: the session read, the claim, its webhook deliveries and the details it answers.
    expect(won.trips).toBe(4)
  })
})

describe('the facts read with a session', () => {
  it('are those the policy reads on its own, with the agent as its own row', async () => {
    const { t, counted } = made
    const firm = `FIRM-T${Date.now()}`
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm })
    const coLead = await makePlannedAgent(t.db, { brokerFirmLicense: firm })
    const admin = await makePlannedAgent(t.db, { role: 'Admin Team Member', brokerFirmLicense: firm })
    const member = await makePlannedAgent(t.db, { brokerFirmLicense: firm })
    const otherFirm = await makePlannedAgent(t.db)
    const pending = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firmStatus: 'pending' })
    const loner = await makePlannedAgent(t.db, { brokerFirmLicense: firm })
    const team = await makeTeam(t.db, lead, [admin, member, otherFirm, pending])
    await t.db.updateTable('reTeam').set({ reCoTeamLeadId: coLead.agent.id }).where('id', '=', team).execute()
    await makeTeam(t.db, admin, [member])
    const { sessions, access } = counted.api.deps
    const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b)
    const sorted = (a: Actor) => ({
      ...a,
      teamIds: ascending(a.teamIds),
      teammateIds: ascending(a.teammateIds),
      actsForIds: ascending(a.actsForIds),
      ledTeamIds: ascending(a.ledTeamIds),
    })
    const onItsOwn = createAccess(t.db)
    for (const agent of [lead, coLead, admin, member, otherFirm, pending, loner]) {
      const found = await sessions.validateWithAgent(agent.token)
      if (!found?.agent) throw new Error('no agent with the session')
      // The agent as its own row: every column, and none of the session's beside them.
      expect(found.agent).toStrictEqual(
        await t.db.selectFrom('reAgent').selectAll().where('id', '=', agent.agent.id).executeTakeFirst(),
      )
      const withSession = await access.actor(found.agent)
      expect(sorted(withSession)).toEqual(sorted(await onItsOwn.actor({ ...found.agent })))
    }
    // The facts are not empty ones: the lead's team and its people came with its session.
    const leadAgent = (await sessions.validateWithAgent(lead.token))?.agent
    if (!leadAgent) throw new Error('no agent with the session')
    const leadFacts = await access.actor(leadAgent)
    expect(leadFacts.ledTeamIds).toEqual([team])
    expect(ascending(leadFacts.actsForIds)).toEqual(
      ascending([coLead.agent.id, admin.agent.id, member.agent.id]),
    )
  })
})
