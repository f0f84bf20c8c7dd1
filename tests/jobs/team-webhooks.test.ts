// A Team Lead's endpoints for its whole team (decision 012): they hear the events of everyone in the
// team — lead, co-lead and members who accepted — once per event, with a guest's contact masked, and
// they are the team's leads' to manage, nobody else's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'
import { guestSignIn, type Receiver, startReceiver, until, verified } from '../support/webhook-receiver.ts'

let t: TestApp
let hooks: Receiver

beforeAll(async () => {
  hooks = await startReceiver()
  t = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await hooks?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
// biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field.
type Event = { type: string; data: any }

const settle = (ms = 1200) => new Promise((r) => setTimeout(r, ms))
const events = (path: string): Event[] => hooks.at(path).map((r) => JSON.parse(r.body))

function saveEndpoint(agent: Agent, path: string, events: string[], teamId?: number) {
  return t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: agent.token,
    body: { url: `${hooks.url}${path}`, events, ...(teamId === undefined ? {} : { teamId }) },
  })
}

const teamName = async (id: number) =>
  (await t.db.selectFrom('reTeam').select('reTeamName').where('id', '=', id).executeTakeFirstOrThrow())
    .reTeamName

/** Lena leads the team, Cora co-leads it, Max accepted; Pia is still invited; Otto is of the firm only. */
async function aTeam() {
  const lena = await makePlannedAgent(t.db, { firstName: 'Lena', role: 'Team Lead' })
  const cora = await makePlannedAgent(t.db, { firstName: 'Cora' })
  const max = await makePlannedAgent(t.db, { firstName: 'Max' })
  const pia = await makePlannedAgent(t.db, { firstName: 'Pia' })
  const otto = await makePlannedAgent(t.db, { firstName: 'Otto' })
  const teamId = await makeTeam(t.db, lena, [max])
  await t.db.updateTable('reTeam').set({ reCoTeamLeadId: cora.agent.id }).where('id', '=', teamId).execute()
  await t.db
    .insertInto('reTeamMember')
    .values({ reTeamId: teamId, reAgentId: pia.agent.id, addedByReAgentId: lena.agent.id })
    .execute()
  return { lena, cora, max, pia, otto, teamId }
}

describe('team endpoints', () => {
  it("hear every team member's events once, signed, with the guest's contact masked", async () => {
    const { lena, max, pia, otto, teamId } = await aTeam()
    const saved = await saveEndpoint(lena, '/team-a', ['prospect.created', 'attendee.added'], teamId)
    expect(saved.status).toBe(201)
    const { secret } = saved.body.data as { secret: string }
    expect((await saveEndpoint(max, '/max-a', ['prospect.created'])).status).toBe(201)

    // A guest signs in at Max's own open house: Max's endpoint has the lead in full, the team's masked.
    const oh = await scheduleOpenHouse(t, max, { publishLevel: 'Hosting Myself' })
    const guest = await guestSignIn(t, oh.id)
    await until(() => hooks.at('/team-a').length >= 2 && hooks.at('/max-a').length >= 1, 'the events')
    const own = events('/max-a')[0]
    expect(own?.data.prospect).toMatchObject({
      id: guest.prospectId,
      contactMasked: false,
      prospectLastName: 'Visitor',
    })
    expect(own?.data.prospect.prospectEmailId).toMatch(/^gina-.*@example\.com$/)
    expect(own?.data.team).toBeUndefined()

    const team = events('/team-a')
    expect(team.map((e) => e.type).sort()).toEqual(['attendee.added', 'prospect.created'])
    for (const e of team) {
      expect(e.data.team).toEqual({
        id: teamId,
        reTeamName: await teamName(teamId),
        agentId: max.agent.id,
        agentName: `${max.agent.reAgentFirstName} ${max.agent.reAgentLastName}`,
      })
      expect(e.data.prospect).toMatchObject({
        id: guest.prospectId,
        prospectFirstName: 'Gina',
        contactMasked: true,
      })
      expect(e.data.prospect.prospectEmailId).not.toMatch(/^gina-/)
      expect(e.data.prospect.prospectPhoneNumber).not.toContain('555 0123')
      expect(e.data.openHouse.id).toBe(oh.id)
    }
    expect(team.find((e) => e.type === 'attendee.added')?.data.attendee.answers).toBeNull()
    expect(hooks.at('/team-a').every((r) => verified(r, secret))).toBe(true)

    // Pia has not accepted yet and Otto is not in the team: their guests are not the team's to hear of.
    await guestSignIn(t, (await scheduleOpenHouse(t, pia, { publishLevel: 'Hosting Myself' })).id)
    await guestSignIn(t, (await scheduleOpenHouse(t, otto, { publishLevel: 'Hosting Myself' })).id)
    await settle()
    expect(hooks.at('/team-a')).toHaveLength(2)
  })

  it('hears an event that concerns two of its people once', async () => {
    const { lena, max, teamId } = await aTeam()
    expect((await saveEndpoint(lena, '/team-b', ['attendee.added'], teamId)).status).toBe(201)
    // Lena lists, Max hosts: the sign-in concerns both, and the team hears it once.
    const oh = await scheduleHostedBy(t, lena, max)
    await guestSignIn(t, oh.id)
    await until(() => hooks.at('/team-b').length >= 1, 'the event')
    await settle()
    expect(hooks.at('/team-b')).toHaveLength(1)
    expect(events('/team-b')[0]?.data.team).toEqual({
      id: teamId,
      reTeamName: await teamName(teamId),
      agentId: lena.agent.id,
      agentName: `${lena.agent.reAgentFirstName} ${lena.agent.reAgentLastName}`,
    })
  })

  it('stops hearing a member who left the team', async () => {
    const { lena, max, teamId } = await aTeam()
    expect((await saveEndpoint(lena, '/team-c', ['prospect.created'], teamId)).status).toBe(201)
    const [membership] = await t.db
      .selectFrom('reTeamMember')
      .select('id')
      .where('reTeamId', '=', teamId)
      .where('reAgentId', '=', max.agent.id)
      .execute()
    const removed = await t.call('DELETE', `/reteammgmt/removeMemberFromRETeam/${membership?.id}`, {
      token: lena.token,
    })
    expect(removed.status).toBe(200)
    await guestSignIn(t, (await scheduleOpenHouse(t, max, { publishLevel: 'Hosting Myself' })).id)
    await settle()
    expect(hooks.at('/team-c')).toEqual([])
  })

  it("are registered and managed by the team's lead and co-lead only", async () => {
    const { lena, cora, max, otto, teamId } = await aTeam()
    const other = await aTeam()

    // A member, an outsider and another team's lead may not register one; nor may anyone for no team.
    for (const [who, team] of [
      [max, teamId],
      [otto, teamId],
      [other.lena, teamId],
      [lena, 99_999_999],
    ] as const) {
      const res = await saveEndpoint(who, '/nope', ['prospect.created'], team)
      expect(res.status).toBe(403)
      expect(res.body.error.message).toBe('You can only add endpoints for a team you lead or co-lead')
    }
    expect((await saveEndpoint(lena, '/nope', ['prospect.created'], -1)).status).toBe(422)

    const saved = await saveEndpoint(cora, '/team-d', ['prospect.created'], teamId)
    expect(saved.status).toBe(201)
    const { id } = saved.body.data as { id: number }

    // Both leads see it in their list, with the team's name; the member and the outsider do not.
    const team = await t.db
      .selectFrom('reTeam')
      .select('reTeamName')
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow()
    for (const lead of [lena, cora]) {
      const list = await t.call('GET', `/webhookmgmt/getWebhookEndpointsByREAgentId/${lead.agent.id}`, {
        token: lead.token,
      })
      expect(list.status).toBe(200)
      expect(list.body.data).toContainEqual(
        expect.objectContaining({ id, teamId, teamName: team.reTeamName, reAgentId: cora.agent.id }),
      )
    }
    for (const who of [max, otto, other.lena]) {
      const list = await t.call('GET', `/webhookmgmt/getWebhookEndpointsByREAgentId/${who.agent.id}`, {
        token: who.token,
      })
      expect(list.body.data.map((e: { id: number }) => e.id)).not.toContain(id)
      // Its log, test events and deletion: as if it did not exist.
      expect(
        (await t.call('GET', `/webhookmgmt/getWebhookDeliveries/${id}`, { token: who.token })).status,
      ).toBe(404)
      const test = await t.call('POST', `/webhookmgmt/sendWebhookTestEvent/${id}`, { token: who.token })
      expect(test.status).toBe(404)
      const del = await t.call('DELETE', `/webhookmgmt/deleteWebhookEndpoint/${id}`, { token: who.token })
      expect(del.status).toBe(404)
    }

    // The lead who did not register it manages it all the same.
    expect(
      (await t.call('GET', `/webhookmgmt/getWebhookDeliveries/${id}`, { token: lena.token })).status,
    ).toBe(200)
    const del = await t.call('DELETE', `/webhookmgmt/deleteWebhookEndpoint/${id}`, { token: lena.token })
    expect(del.status).toBe(200)
  })
})
