import { randomBytes } from 'node:crypto'
import { messages, TEAM_CODE_PLACEHOLDER } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { type AgentOverrides, acceptTeam, makeAgent, makePlannedAgent } from '../support/factories.ts'
import { collect, connectSocket, nextEvent, type TestSocket } from '../support/socket.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

/** Each test works inside its own broker firm, so firm-wide rules see only its agents. */
const newFirm = () => `FIRM-${randomBytes(4).toString('hex')}`
const teamLead = (firm: string, plan = 'Team', overrides: AgentOverrides = {}) =>
  makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm, ...overrides }, plan)
const agentOf = (firm: string, overrides: AgentOverrides = {}) =>
  makePlannedAgent(t.db, { brokerFirmLicense: firm, ...overrides }, 'Solo')

const saveTeam = (who: Agent, body: Record<string, unknown>) =>
  t.call('POST', '/reteammgmt/saveRETeam', { token: who.token, body })
const editTeam = (who: Agent, id: number, body: Record<string, unknown>) =>
  t.call('PATCH', `/reteammgmt/saveRETeam/${id}`, { token: who.token, body })
const addMember = (who: Agent, reTeamId: number, member: Agent) =>
  t.call('POST', '/reteammgmt/addMemberToRETeam', {
    token: who.token,
    body: { reTeamId, reAgentId: member.agent.id },
  })
const members = (who: Agent, teamId: number) =>
  t.call('GET', `/reteammgmt/getRETeamMembersByRETeamId/${teamId}`, { token: who.token })
const removeMember = (who: Agent, reTeamMemberId: number) =>
  t.call('DELETE', `/reteammgmt/removeMemberFromRETeam/${reTeamMemberId}`, { token: who.token })
const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field).sort()

async function createTeam(lead: Agent, overrides: Record<string, unknown> = {}) {
  const res = await saveTeam(lead, {
    reTeamName: 'Peachtree Closers',
    teamType: 'Real Estate Team',
    ...overrides,
  })
  if (res.status !== 201) throw new Error(`team: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; reTeamName: string }
}

describe('saving a team', () => {
  it('creates an active team led by the caller, with the placeholder code, whatever the form sends for them', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const someoneElse = await agentOf(firm)
    const res = await saveTeam(lead, {
      reTeamName: '  Peachtree Closers ',
      teamType: 'Partnered Team',
      reTeamLeadId: someoneElse.agent.id,
      createdByREAgentId: someoneElse.agent.id,
      reTeamCode: 'MY-CODE',
      reCoTeamLeadId: '',
      createdDate: '2001-01-01T00:00:00Z',
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      reTeamName: 'Peachtree Closers',
      reTeamCode: TEAM_CODE_PLACEHOLDER,
      teamType: 'Partnered Team',
      reTeamLeadId: lead.agent.id,
      reCoTeamLeadId: null,
      createdByREAgentId: lead.agent.id,
      reTeamActiveFlag: true,
      createdDate: expect.any(String),
      updatedDate: expect.any(String),
    })
    expect(res.body.data.createdDate.startsWith('2001')).toBe(false)
  })

  it('requires a team name and one of the four team types', async () => {
    const lead = await teamLead(newFirm())
    const empty = await saveTeam(lead, { reTeamName: ' ', teamType: '' })
    expect(empty.status).toBe(422)
    expect(empty.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'reTeamName', message: 'Team name is required' },
        { field: 'teamType', message: 'Team type is required' },
      ]),
    )
    const wrongType = await saveTeam(lead, { reTeamName: 'North', teamType: 'Book Club' })
    expect(fields(wrongType.body)).toEqual(['teamType'])
  })

  it('lets only the Team Lead role create teams', async () => {
    const firm = newFirm()
    for (const role of ['Real Estate Agent', 'Admin Team Member'] as const) {
      const someone = await makePlannedAgent(t.db, { role, brokerFirmLicense: firm }, 'Brokerage')
      const res = await saveTeam(someone, { reTeamName: 'North', teamType: 'Real Estate Team' })
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('FORBIDDEN')
    }
  })

  it('refuses a second team of the same type by the same lead', async () => {
    const lead = await teamLead(newFirm())
    await createTeam(lead, { teamType: 'Real Estate Group' })
    const again = await saveTeam(lead, { reTeamName: 'Other name', teamType: 'Real Estate Group' })
    expect(again.status).toBe(409)
    expect(again.body.error).toEqual({ code: 'TEAM_TYPE_EXISTS', message: messages.teamSaveFailed })

    const other = await createTeam(lead, { teamType: 'Market Center' })
    const retyped = await editTeam(lead, other.id, { reTeamName: 'MC', teamType: 'Real Estate Group' })
    expect(retyped.status).toBe(409)
    expect(retyped.body.error).toEqual({ code: 'TEAM_TYPE_EXISTS', message: messages.teamSaveFailed })
  })

  it('creates teams only while totalCreatedTeams < numberOfTeamsCreate of the plan', async () => {
    const solo = await teamLead(newFirm(), 'Solo')
    const none = await saveTeam(solo, { reTeamName: 'North', teamType: 'Real Estate Team' })
    expect(none.status).toBe(402)
    expect(none.body.error).toEqual({ code: 'PLAN_LIMIT_TEAMS', message: messages.teamLimitReached })

    const lead = await teamLead(newFirm(), 'Team')
    for (const teamType of ['Real Estate Team', 'Partnered Team', 'Real Estate Group']) {
      await createTeam(lead, { teamType })
    }
    const fourth = await saveTeam(lead, { reTeamName: 'MC', teamType: 'Market Center' })
    expect(fourth.status).toBe(402)
    expect(fourth.body.error).toEqual({ code: 'PLAN_LIMIT_TEAMS', message: messages.teamLimitReached })
    const usage = await t.call('GET', `/pricingplanmgmt/getPlanUtilization/${lead.agent.id}`, {
      token: lead.token,
    })
    expect(usage.body.data.pricingPlanUtilization.totalCreatedTeams).toBe(3)
  })

  it('holds the team limit when a lead creates teams concurrently', async () => {
    const lead = await teamLead(newFirm(), 'Team')
    const answers = await Promise.all(
      ['Real Estate Team', 'Partnered Team', 'Real Estate Group', 'Market Center'].map((teamType) =>
        saveTeam(lead, { reTeamName: teamType, teamType }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 402])
  })

  it('needs a plan in force', async () => {
    const lead = await makeAgent(t.db, { role: 'Team Lead', brokerFirmLicense: newFirm() })
    const res = await saveTeam(lead, { reTeamName: 'North', teamType: 'Real Estate Team' })
    expect(res.status).toBe(402)
    expect(res.body.error.code).toBe('NO_ACTIVE_PLAN')
  })

  it('takes as co-lead another agent of the same firm only', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const outsider = await agentOf(newFirm())
    for (const reCoTeamLeadId of [lead.agent.id, outsider.agent.id, 999_999_999]) {
      const res = await saveTeam(lead, { reTeamName: 'North', teamType: 'Real Estate Team', reCoTeamLeadId })
      expect(res.status).toBe(422)
      expect(fields(res.body)).toEqual(['reCoTeamLeadId'])
    }
    const colleague = await agentOf(firm)
    const team = await createTeam(lead, { reCoTeamLeadId: colleague.agent.id })
    expect(team).toMatchObject({ reCoTeamLeadId: colleague.agent.id })
  })

  it('lets the lead edit the team, and neither its co-lead, nor a member, nor a stranger', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const coLead = await agentOf(firm)
    const member = await agentOf(firm)
    const stranger = await agentOf(firm)
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })
    expect((await addMember(lead, team.id, member)).status).toBe(201)

    const edit = { reTeamName: 'Renamed', teamType: 'Real Estate Team', reTeamActiveFlag: 'false' }
    for (const [who, status] of [
      [coLead, 403],
      [member, 403],
      [stranger, 404],
    ] as const) {
      expect((await editTeam(who, team.id, edit)).status).toBe(status)
    }
    const edited = await editTeam(lead, team.id, edit)
    expect(edited.status).toBe(200)
    // The co-lead was not sent: it stays.
    expect(edited.body.data).toMatchObject({
      reTeamName: 'Renamed',
      reTeamActiveFlag: false,
      reCoTeamLeadId: coLead.agent.id,
      reTeamLeadId: lead.agent.id,
    })
    const cleared = await editTeam(lead, team.id, { ...edit, reCoTeamLeadId: null })
    expect(cleared.body.data.reCoTeamLeadId).toBeNull()
  })

  it('refuses an agent whose license is not valid', async () => {
    const lead = await teamLead(newFirm(), 'Team', { licenseValid: false })
    const res = await saveTeam(lead, { reTeamName: 'North', teamType: 'Real Estate Team' })
    expect(res.status).toBe(403)
    expect(res.body.error).toEqual({ code: 'LICENSE_INVALID', message: messages.licenseNotValid })
  })
})

describe('reading teams', () => {
  it("lists an agent's own teams: led, co-led and joined", async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const otherLead = await teamLead(firm)
    const agent = await agentOf(firm)
    const coLed = await createTeam(lead, { reTeamName: 'Bravo', reCoTeamLeadId: agent.agent.id })
    const joined = await createTeam(otherLead, { reTeamName: 'Alpha' })
    await addMember(otherLead, joined.id, agent)
    await createTeam(otherLead, { reTeamName: 'Not mine', teamType: 'Partnered Team' })

    const list = await t.call('GET', `/reteammgmt/getRETeamsByREAgentId/${agent.agent.id}`, {
      token: agent.token,
    })
    expect(list.status).toBe(200)
    expect(list.body.data.map((x: { id: number }) => x.id)).toEqual([joined.id, coLed.id])

    const someoneElses = await t.call('GET', `/reteammgmt/getRETeamsByREAgentId/${lead.agent.id}`, {
      token: agent.token,
    })
    expect(someoneElses.status).toBe(403)
  })

  it('finds the agent’s team of a type as {id, reTeamName}, or null', async () => {
    const lead = await teamLead(newFirm())
    const team = await createTeam(lead, { reTeamName: 'Group', teamType: 'Real Estate Group' })
    const url = (type: string) =>
      `/reteammgmt/getRETeamByREAgentIdATeamType/${lead.agent.id}/${encodeURIComponent(type)}`
    const found = await t.call('GET', url('Real Estate Group'), { token: lead.token })
    expect(found.body.data).toEqual({ id: team.id, reTeamName: 'Group' })
    const none = await t.call('GET', url('Market Center'), { token: lead.token })
    expect(none.status).toBe(200)
    expect(none.body.data).toBeNull()
    expect((await t.call('GET', url('Book Club'), { token: lead.token })).status).toBe(400)
  })

  it('shows the team detail with its lead (and firm name), co-lead and the lead’s user id to its people only', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const coLead = await agentOf(firm, { firstName: 'Casey' })
    const member = await agentOf(firm)
    const stranger = await agentOf(firm)
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })
    await addMember(lead, team.id, member)

    for (const who of [lead, coLead, member]) {
      const res = await t.call('GET', `/reteammgmt/getRETeamDetails/${team.id}`, { token: who.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({
        reTeam: { id: team.id, reTeamLeadId: lead.agent.id },
        reAgentTeamLeadDetails: {
          id: lead.agent.id,
          reAgentFirstName: lead.agent.reAgentFirstName,
          reAgentBrokerFirmName: 'Peachtree Realty',
        },
        reAgentCoTeamLeadDetails: { id: coLead.agent.id, reAgentFirstName: 'Casey' },
        userProfileId: lead.user.id,
      })
      expect(res.body.data.reAgentTeamLeadDetails).not.toHaveProperty('reAgentLicenseNumber')
    }
    const hidden = await t.call('GET', `/reteammgmt/getRETeamDetails/${team.id}`, { token: stranger.token })
    expect(hidden.status).toBe(404)
  })
})

describe('team members', () => {
  it('lets the lead and the co-lead invite agents of the firm, who are members once they accept', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const coLead = await agentOf(firm)
    const ann = await agentOf(firm, { firstName: 'Ann', lastName: 'Able' })
    const bob = await agentOf(firm, { firstName: 'Bob', lastName: 'Baker' })
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })

    const added = await addMember(lead, team.id, bob)
    expect(added.status).toBe(201)
    expect(added.body.data).toMatchObject({
      id: expect.any(Number),
      reTeamId: team.id,
      reAgentId: bob.agent.id,
      reAgentCurrentFlag: true,
      addedByREAgentId: lead.agent.id,
      invitationStatus: 'invited',
    })
    expect((await addMember(coLead, team.id, ann)).body.data.addedByREAgentId).toBe(coLead.agent.id)
    // Invited, not yet a member: it sees the team to decide, not its members.
    expect((await members(ann, team.id)).status).toBe(403)
    const invitation = await t.db
      .selectFrom('mail')
      .select('textBody')
      .where('toAddress', '=', ann.agent.reAgentEmailId)
      .executeTakeFirstOrThrow()
    expect(invitation.textBody).toContain(`/dashboard?invitation=${team.id}`)
    await acceptTeam(t, ann, team.id)

    const list = await members(ann, team.id)
    expect(list.status).toBe(200)
    expect(list.body.data.reTeam).toMatchObject({ id: team.id, reTeamName: team.reTeamName })
    expect(list.body.data.reTeamMemberWithSupportingDetailsList).toEqual([
      {
        reTeamMemberId: expect.any(Number),
        invitationStatus: 'accepted',
        realEstateAgent: {
          id: ann.agent.id,
          reAgentFirstName: 'Ann',
          reAgentLastName: 'Able',
          reAgentPhoneNumber: ann.agent.reAgentPhoneNumber,
          reAgentEmailId: ann.agent.reAgentEmailId,
        },
      },
      {
        reTeamMemberId: added.body.data.id,
        invitationStatus: 'invited',
        // No contact data until Bob accepts.
        realEstateAgent: expect.objectContaining({
          id: bob.agent.id,
          reAgentLastName: 'Baker',
          reAgentPhoneNumber: null,
          reAgentEmailId: null,
        }),
      },
    ])
    const stranger = await agentOf(firm)
    expect((await members(stranger, team.id)).status).toBe(404)
  })

  it('does not let a member add or remove members', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const member = await agentOf(firm)
    const team = await createTeam(lead)
    const added = await addMember(lead, team.id, member)
    const res = await addMember(member, team.id, await agentOf(firm))
    expect(res.status).toBe(403)
    expect((await removeMember(member, added.body.data.id)).status).toBe(403)
  })

  it('refuses an agent of another broker firm', async () => {
    const lead = await teamLead(newFirm())
    const team = await createTeam(lead)
    const res = await addMember(lead, team.id, await agentOf(newFirm()))
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual(['reAgentId'])
    expect((await members(lead, team.id)).body.data.reTeamMemberWithSupportingDetailsList).toEqual([])
  })

  it('refuses an agent already part of the team', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const coLead = await agentOf(firm)
    const member = await agentOf(firm)
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })
    await addMember(lead, team.id, member)
    for (const who of [member, lead, coLead]) {
      const res = await addMember(lead, team.id, who)
      expect(res.status).toBe(409)
      expect(res.body.error).toEqual({ code: 'ALREADY_TEAM_MEMBER', message: messages.alreadyTeamMember })
    }
  })

  it('stops at numberOfTeamMembersPerTeam of the lead’s plan, also when the co-lead adds and adds race', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm, 'Team') // 10 members per team
    const coLead = await agentOf(firm) // a Solo plan: the lead's plan is the one that counts
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })
    for (let i = 0; i < 8; i++) {
      expect((await addMember(coLead, team.id, await agentOf(firm))).status).toBe(201)
    }
    const racers = await Promise.all([agentOf(firm), agentOf(firm), agentOf(firm)])
    const answers = await Promise.all(racers.map((r) => addMember(lead, team.id, r)))
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 402])
    const refused = answers.find((a) => a.status === 402)
    expect(refused?.body.error).toEqual({
      code: 'PLAN_LIMIT_MEMBERS',
      message: messages.teamMemberLimitReached,
    })
    const list = await members(lead, team.id)
    expect(list.body.data.reTeamMemberWithSupportingDetailsList).toHaveLength(10)

    // Removing one makes room again.
    const first = list.body.data.reTeamMemberWithSupportingDetailsList[0]
    expect((await removeMember(lead, first.reTeamMemberId)).status).toBe(200)
    expect((await addMember(lead, team.id, await agentOf(firm))).status).toBe(201)
  })

  it('lets the lead or co-lead remove a member, once', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const coLead = await agentOf(firm)
    const member = await agentOf(firm)
    const team = await createTeam(lead, { reCoTeamLeadId: coLead.agent.id })
    const added = await addMember(lead, team.id, member)
    const removed = await removeMember(coLead, added.body.data.id)
    expect(removed.status).toBe(200)
    expect(removed.body.data).toMatchObject({ id: added.body.data.id, reAgentId: member.agent.id })
    expect((await members(lead, team.id)).body.data.reTeamMemberWithSupportingDetailsList).toEqual([])
    expect((await removeMember(lead, added.body.data.id)).status).toBe(404)
    // No longer a member, the agent no longer sees the team.
    expect((await members(member, team.id)).status).toBe(404)
  })
})

describe('live membership', () => {
  const sockets: TestSocket[] = []
  afterAll(() => {
    for (const s of sockets) s.close()
  })
  const socketOf = async (who: Agent) => {
    const socket = await connectSocket(t.url, { token: who.token })
    sockets.push(socket)
    return socket
  }

  it('tells the team and the invited agent of an invitation, and the new member hears the team once it accepts', async () => {
    const firm = newFirm()
    const lead = await teamLead(firm)
    const member = await agentOf(firm)
    const newcomer = await agentOf(firm)
    const team = await createTeam(lead)
    await addMember(lead, team.id, member)
    await acceptTeam(t, member, team.id)

    // Connected after joining: the member's socket sits in the team room.
    const memberSocket = await socketOf(member)
    // Connected before joining: the newcomer's socket is moved into the team room when it accepts.
    const newcomerSocket = await socketOf(newcomer)
    const toMember = nextEvent(memberSocket, 'stats.changed')
    const toNewcomer = nextEvent(newcomerSocket, 'stats.changed')
    const added = await addMember(lead, team.id, newcomer)
    expect(added.status).toBe(201)
    expect((await toMember).data).toEqual({ reTeamId: team.id })
    expect((await toNewcomer).data).toEqual({ reTeamId: team.id })
    // Invited only: nothing of the team reaches it yet.
    const early = collect(newcomerSocket, 'stats.changed')
    await editTeam(lead, team.id, { reTeamName: 'Early', teamType: 'Real Estate Team' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(early).toEqual([])
    const accepted = nextEvent(newcomerSocket, 'stats.changed')
    await acceptTeam(t, newcomer, team.id)
    expect((await accepted).data).toEqual({ reTeamId: team.id })

    // Now in the room, the newcomer hears of a change to the team (the member's removal)…
    const heard = nextEvent(newcomerSocket, 'stats.changed')
    const memberRow = (await members(lead, team.id)).body.data.reTeamMemberWithSupportingDetailsList.find(
      (m: { realEstateAgent: { id: number } }) => m.realEstateAgent.id === member.agent.id,
    )
    const toRemoved = nextEvent(memberSocket, 'stats.changed')
    await removeMember(lead, memberRow.reTeamMemberId)
    expect((await heard).data).toEqual({ reTeamId: team.id })
    expect((await toRemoved).data).toEqual({ reTeamId: team.id })

    // …and the removed member, out of the room, no longer hears the team.
    const later = collect(memberSocket, 'stats.changed')
    const heardAgain = nextEvent(newcomerSocket, 'stats.changed')
    await editTeam(lead, team.id, { reTeamName: 'Renamed', teamType: 'Real Estate Team' })
    await heardAgain
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(later).toEqual([])
  })
})
