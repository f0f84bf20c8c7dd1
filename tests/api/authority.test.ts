import { execFile } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { FEEDBACK_RATING_FIELDS, messages, rooms } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import {
  makePlannedAgent,
  makeTeam,
  makeValidatedUser,
  propertyFields,
  validAgentFields,
} from '../support/factories.ts'
import { prospectOfVisit, publish, scheduleFor, scheduleOpenHouse } from '../support/open-houses.ts'

// The defects of "who may act for whom", each reproduced as it was measured, and now refused.

const ADMIN_TOKEN = randomBytes(24).toString('hex')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_TOKEN } })
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const firm = () => `FIRM-${randomBytes(4).toString('hex')}`
const agent = (overrides: Parameters<typeof makePlannedAgent>[1] = {}) => makePlannedAgent(t.db, overrides)
const untouched = () => Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, '']))

const teamOf = (lead: Agent, members: Agent[]) => makeTeam(t.db, lead, members)

/** A user who signs up and types in any firm license, as a newcomer would. */
async function newcomer(license: string, role = 'Real Estate Agent') {
  const user = await makeValidatedUser(t)
  const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
    token: user.token,
    body: {
      ...validAgentFields(user.email, { reAgentBrokerFirmLicense: license, reAgentRole: role }),
      porchlightUserId: user.userId,
    },
  })
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  const plan = await t.db
    .selectFrom('pricingPlan')
    .select('id')
    .where('pricingPlanTitle', '=', 'Brokerage')
    .executeTakeFirstOrThrow()
  await t.db
    .insertInto('pricingPlanPurchase')
    .values({
      pricingPlanId: plan.id,
      reAgentId: res.body.data.id,
      pricingPlanFrequency: 'Monthly',
      pricingPlanStartDate: new Date(),
      pricingPlanEndDate: new Date(Date.now() + 30 * 86_400_000),
    })
    .execute()
  return { token: user.token, email: user.email, agent: res.body.data }
}

const openHouseRow = (id: number) =>
  t.db.selectFrom('openHouse').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('1. firm and role are not self-declared', () => {
  it('gives a newcomer who types a firm license no roster, no colleague, no Market Center offer and no firm room', async () => {
    const license = firm()
    const insider = await agent({ brokerFirmLicense: license, firstName: 'Ivy' })
    const offer = await scheduleOpenHouse(t, insider, { publishLevel: 'Market Center' })
    expect((await publish(t, insider, offer.id, 'Market Center')).status).toBe(200)

    const intruder = await newcomer(license)
    expect(intruder.agent.firmMembershipStatus).toBe('pending')
    const roster = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: intruder.token,
    })
    expect(roster.status).toBe(403)
    expect(roster.body.error.message).toBe(messages.firmNotVerified)
    expect(JSON.stringify(roster.body)).not.toContain(insider.agent.reAgentEmailId)
    const details = await t.call('GET', `/reagentmgmt/getREAgentDetails/${insider.agent.id}`, {
      token: intruder.token,
    })
    expect(details.status).toBe(404)
    const offers = await t.call('GET', `/openhousemgmt/getAvailableToHostOH/${intruder.agent.id}`, {
      token: intruder.token,
    })
    expect(offers.body.data.map((o: { id: number }) => o.id)).not.toContain(offer.id)
    const claim = await t.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${offer.id}/${intruder.agent.id}`,
      {
        token: intruder.token,
      },
    )
    expect(claim.status).toBe(404)
    expect((await openHouseRow(offer.id)).hostingReAgentId).toBeNull()
    // It cannot publish to that firm's Market Center either.
    const own = await scheduleOpenHouse(t, intruder)
    const spam = await publish(t, intruder, own.id, 'Market Center')
    expect(spam.status).toBe(422)
    expect(spam.body.errors).toEqual([{ field: 'publishLevel', message: messages.firmNotVerified }])

    const { connectSocket } = await import('../support/socket.ts')
    const socket = await connectSocket(t.url, { token: intruder.token })
    try {
      const inFirmRoom = await t.app.deps.realtime.io.in(rooms.marketFirm(license)).fetchSockets()
      expect(inFirmRoom.map((s) => s.id)).not.toContain(socket.id)
      const inMarket = await t.app.deps.realtime.io.in(rooms.marketAll).fetchSockets()
      expect(inMarket.map((s) => s.id)).toContain(socket.id)
    } finally {
      socket.disconnect()
    }
  })

  it('keeps the role held when an agent types another in its profile: a colleague’s open house stays out of reach', async () => {
    const license = firm()
    const colleague = await agent({ brokerFirmLicense: license })
    const plain = await agent({ brokerFirmLicense: license })
    const oh = await scheduleOpenHouse(t, colleague)
    const cancel = { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true }
    expect(
      (await t.call('POST', '/openhousemgmt/cancelOpenHouse', { token: plain.token, body: cancel })).status,
    ).toBe(404)
    const { porchlightUserId: _u, id: _i, createdDate: _c, updatedDate: _d, ...profile } = plain.agent
    const promoted = await t.call('PATCH', `/reagentmgmt/${plain.agent.id}`, {
      token: plain.token,
      body: { ...profile, reAgentRole: 'Admin Team Member', reAgentDateOfBirth: null },
    })
    expect(promoted.status).toBe(200)
    expect(promoted.body.data.reAgentRole).toBe('Real Estate Agent')
    const before = await openHouseRow(oh.id)
    for (const [method, url, body] of [
      ['POST', '/openhousemgmt/cancelOpenHouse', cancel],
      ['PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, { rePropertyId: oh.rePropertyId }],
      ['POST', `/openhousemgmt/publishOpenHouseOpportunity/${oh.id}/${colleague.agent.id}/Open%20To%20All`],
      ['POST', `/openhousemgmt/cloneOpenHouse/${oh.id}`],
      ['GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`],
    ] as const) {
      const res = await t.call(method, url, { token: plain.token, body })
      expect([404, 422]).toContain(res.status)
    }
    // Nor may it schedule for the colleague.
    const forColleague = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: plain.token,
      body: {
        ...(await import('../support/factories.ts')).scheduleFields(oh.rePropertyId),
        listingREAgentId: colleague.agent.id,
      },
    })
    expect(forColleague.status).toBe(422)
    expect(await openHouseRow(oh.id)).toEqual(before)
  })

  it('makes a membership pending again when the firm license changes, whatever changes it', async () => {
    const member = await agent({ brokerFirmLicense: firm() })
    await t.db
      .updateTable('reAgent')
      .set({ reAgentBrokerFirmLicense: firm() })
      .where('id', '=', member.agent.id)
      .execute()
    const row = await t.db
      .selectFrom('reAgent')
      .selectAll()
      .where('id', '=', member.agent.id)
      .executeTakeFirstOrThrow()
    expect(row.firmMembershipStatus).toBe('pending')
  })
})

describe('firm members are approved in the app, or by an operator', () => {
  it('lets a verified Team Lead of the firm approve or decline, and tells the requester by mail', async () => {
    const license = firm()
    const lead = await agent({ role: 'Team Lead', brokerFirmLicense: license })
    const asking = await newcomer(license)
    const other = await newcomer(license)
    const roster = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: lead.token,
    })
    expect(roster.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: asking.agent.id,
          firmMembershipStatus: 'pending',
          reAgentEmailId: null,
        }),
      ]),
    )
    // Neither a pending agent, nor a lead of another firm, nor the requester itself may decide.
    const otherLead = await agent({ role: 'Team Lead', brokerFirmLicense: firm() })
    expect(
      (await t.call('POST', `/reagentmgmt/approveFirmMember/${asking.agent.id}`, { token: otherLead.token }))
        .status,
    ).toBe(404)
    expect(
      (await t.call('POST', `/reagentmgmt/approveFirmMember/${asking.agent.id}`, { token: other.token }))
        .status,
    ).toBe(404)
    expect(
      (await t.call('POST', `/reagentmgmt/approveFirmMember/${asking.agent.id}`, { token: asking.token }))
        .status,
    ).toBe(403)

    const approved = await t.call('POST', `/reagentmgmt/approveFirmMember/${asking.agent.id}`, {
      token: lead.token,
    })
    expect(approved.status).toBe(200)
    expect(approved.body.data.firmMembershipStatus).toBe('verified')
    const declined = await t.call('POST', `/reagentmgmt/declineFirmMember/${other.agent.id}`, {
      token: lead.token,
    })
    expect(declined.body.data.firmMembershipStatus).toBe('declined')
    const mails = await t.db
      .selectFrom('mail')
      .select(['toAddress', 'subject'])
      .where('toAddress', 'in', [asking.email, other.email])
      .where('subject', 'like', '%member%')
      .execute()
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [
        `You are a verified member of Peachtree Realty`,
        `Your membership of Peachtree Realty was not verified`,
      ].sort(),
    )
    // Verified now: the roster opens, names only.
    const seen = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: asking.token,
    })
    expect(seen.status).toBe(200)
    expect(seen.body.data.map((a: { id: number }) => a.id)).toEqual([lead.agent.id])
  })

  it('lets an operator verify a firm’s first member over HTTP with ADMIN_TOKEN, and answers 404 to anyone else', async () => {
    const first = await newcomer(firm(), 'Team Lead')
    const route = `/admin/verifyFirmMember/${first.agent.id}`
    expect((await t.call('POST', route)).status).toBe(404)
    expect((await t.call('POST', route, { token: first.token })).status).toBe(404)
    expect((await t.call('POST', route, { token: `${ADMIN_TOKEN}x` })).status).toBe(404)
    const ok = await t.call('POST', route, { token: ADMIN_TOKEN })
    expect(ok.status).toBe(200)
    expect(ok.body.data.firmMembershipStatus).toBe('verified')
  })

  it('has no operator routes without ADMIN_TOKEN', async () => {
    const plain = await buildTestApp()
    try {
      expect((await plain.call('POST', '/admin/verifyFirmMember/1', { token: 'x'.repeat(32) })).status).toBe(
        404,
      )
      expect(plain.app.routeTable.some((r) => r.url.startsWith('/api/admin'))).toBe(false)
    } finally {
      await plain.close()
    }
  })

  it('verifies from the command line and grants the role asked for: pnpm firm:verify <license> <email> [role]', async () => {
    const license = firm()
    const first = await newcomer(license, 'Team Lead')
    const root = path.resolve(import.meta.dirname, '../..')
    const tsx = path.join(root, 'node_modules/.bin/tsx')
    expect(fs.existsSync(tsx)).toBe(true)
    const run = promisify(execFile)
    const env = { ...process.env, DATABASE_URL: t.database.url, LOG_LEVEL: 'silent' }
    expect(first.agent.reAgentRole).toBe('Real Estate Agent')
    expect(first.agent.requestedRole).toBe('Team Lead')
    const { stdout } = await run(
      tsx,
      ['server/src/bin/firm-verify.ts', license, first.email.toUpperCase(), 'Team', 'Lead'],
      { cwd: root, env },
    )
    expect(stdout).toContain(`Verified`)
    expect(stdout).toContain('now holds the role Team Lead')
    const row = await t.db
      .selectFrom('reAgent')
      .select(['firmMembershipStatus', 'reAgentRole'])
      .where('id', '=', first.agent.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ firmMembershipStatus: 'verified', reAgentRole: 'Team Lead' })
    const grants = await t.db
      .selectFrom('reAgentRoleGrant')
      .select(['reAgentRole', 'previousRole', 'byOperator', 'grantedByReAgentId', 'reason'])
      .where('reAgentId', '=', first.agent.id)
      .execute()
    expect(grants).toEqual([
      {
        reAgentRole: 'Team Lead',
        previousRole: 'Real Estate Agent',
        byOperator: true,
        grantedByReAgentId: null,
        reason: 'granted',
      },
    ])
    await expect(
      run(tsx, ['server/src/bin/firm-verify.ts', license, 'nobody@example.com'], { cwd: root, env }),
    ).rejects.toMatchObject({
      code: 1,
    })
  })
})

describe('2. a claimer cannot rewrite a fixed schedule', () => {
  it('answers 409 and claims nothing when the date and times are fixed', async () => {
    const listing = await agent()
    const claimer = await agent()
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledStartTime: '10:00 AM',
      scheduledEndTime: '12:00 PM',
    })
    await publish(t, listing, oh.id)
    const before = await openHouseRow(oh.id)
    const res = await t.call('PATCH', `/openhousemgmt/updateOpenHouseSchedule/${oh.id}`, {
      token: claimer.token,
      body: {
        scheduledDate: '2027-09-30',
        scheduledStartTime: '2:00 AM',
        scheduledEndTime: '3:00 AM',
        openHouseTimezone: 'Pacific/Kiritimati',
      },
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'SCHEDULE_FIXED', message: messages.scheduleFixed })
    expect(await openHouseRow(oh.id)).toEqual(before)
  })

  it('sets only what is still flexible: a fixed date keeps its date and zone', async () => {
    const listing = await agent()
    const claimer = await agent()
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledStartTime: 'Choose Your Own (Flexi Time)',
      scheduledEndTime: 'Choose Your Own (Flexi Time)',
    })
    await publish(t, listing, oh.id)
    const before = await openHouseRow(oh.id)
    const res = await t.call('PATCH', `/openhousemgmt/updateOpenHouseSchedule/${oh.id}`, {
      token: claimer.token,
      body: {
        scheduledDate: '2027-09-30',
        scheduledStartTime: '2:00 PM',
        scheduledEndTime: '4:00 PM',
        openHouseTimezone: 'Pacific/Kiritimati',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      scheduledDate: before.scheduledDate,
      openHouseTimezone: 'America/New_York',
      scheduledStartTime: '2:00 PM',
      scheduledEndTime: '4:00 PM',
      hostingREAgentId: claimer.agent.id,
    })
  })
})

describe('3. and 7. leads belong to the agent at the door', () => {
  it("signs a guest in as the host's lead, and never overwrites a prospect the agent typed in", async () => {
    const listing = await agent({ firstName: 'Alice' })
    const host = await agent({ firstName: 'Bob' })
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    const typed = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: host.token,
      body: {
        prospectFirstName: 'Mia',
        prospectLastName: 'Ortiz',
        prospectEmailId: 'mia.ortiz@example.com',
        prospectPhoneNumber: '404 555 0111',
      },
    })
    const signIn = await t.call('POST', '/public/saveProspect', {
      body: {
        prospectFirstName: 'Evil',
        prospectLastName: 'Overwrite',
        prospectEmailId: 'MIA.ORTIZ@example.com',
        prospectPhoneNumber: '999 000 0000',
        openHouseId: oh.id,
        reAgentId: listing.agent.id,
        clientRequestId: randomUUID(),
        emailConsent: 'true',
        consentText: 'yes',
      },
    })
    expect(signIn.status).toBe(201)
    // The answer names the visit, a visit of the prospect it was matched to (decision 029).
    expect(await prospectOfVisit(t, signIn.body.data.id)).toBe(typed.body.data.id)
    const row = await t.db
      .selectFrom('prospect')
      .selectAll()
      .where('id', '=', typed.body.data.id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      prospectFirstName: 'Mia',
      prospectPhoneNumber: '404 555 0111',
      emailConsent: false,
    })
    // Bob's list has it, in full; Alice has no prospect and sees it masked.
    const bobs = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${host.agent.id}`, {
      token: host.token,
    })
    expect(bobs.body.data.map((p: { prospectEmailId: string }) => p.prospectEmailId)).toEqual([
      'mia.ortiz@example.com',
    ])
    const alices = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${listing.agent.id}`, {
      token: listing.token,
    })
    expect(alices.body.data).toEqual([])
  })
})

describe('4. feedback is not forgeable', () => {
  it('keeps a 5/5 review after 31 anonymous probes with sequential ids', async () => {
    const listing = await agent()
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const guest = await t.call('POST', '/public/saveProspect', {
      body: {
        prospectFirstName: 'Ann',
        prospectLastName: 'Lee',
        prospectEmailId: `ann-${randomUUID()}@example.com`,
        prospectPhoneNumber: '404 555 0100',
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
      },
    })
    const given = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: {
        openHouseId: oh.id,
        prospectId: guest.body.data.id,
        guestToken: guest.body.data.guestToken,
        ...untouched(),
        overallExperience: 5,
      },
    })
    expect(given.status).toBe(201)
    const id: number = given.body.data.id
    const statuses = new Set<number>()
    for (let probe = Math.max(1, id - 15); probe <= Math.max(1, id - 15) + 30; probe++) {
      for (const prospectId of [guest.body.data.id]) {
        const res = await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${probe}`, {
          body: {
            openHouseId: oh.id,
            prospectId,
            guestToken: randomBytes(32).toString('base64url'),
            ...untouched(),
            overallExperience: 1,
            feedbackText: 'TERRIBLE',
          },
        })
        statuses.add(res.status)
      }
    }
    expect([...statuses]).toEqual([404])
    const row = await t.db
      .selectFrom('openHouseFeedback')
      .select(['overallExperience', 'feedbackText'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ overallExperience: 5, feedbackText: null })
  })
})

describe("5. and 6. another agent's property", () => {
  it("refuses to schedule another agent's property, and keeps an unpublished property private", async () => {
    const owner = await agent()
    const other = await agent()
    const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
      token: owner.token,
      body: {
        owningREAgentId: owner.agent.id,
        rePropertyDTO: propertyFields(),
        reInventoryPropertyStatus: 'Property Created',
      },
    })
    const propertyId = item.body.data.reProperty.id
    const taken = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: other.token,
      body: (await import('../support/factories.ts')).scheduleFields(propertyId),
    })
    expect(taken.status).toBe(422)
    expect(
      await t.db.selectFrom('openHouse').select('id').where('rePropertyId', '=', propertyId).execute(),
    ).toEqual([])

    expect(
      (await t.call('GET', `/propertymgmt/getREPropertyDetails/${propertyId}`, { token: other.token }))
        .status,
    ).toBe(404)
    expect((await t.call('GET', `/public/getREPropertyDetails/${propertyId}`)).status).toBe(404)
    expect(
      (await t.call('GET', `/propertymgmt/getREPropertyDetails/${propertyId}`, { token: owner.token }))
        .status,
    ).toBe(200)
  })
})

describe('8. team publishing works end to end', () => {
  it('lets a Team Lead schedule for an accepted teammate, see it, and publish it to its team; the listing agent too', async () => {
    const license = firm()
    const lead = await agent({ role: 'Team Lead', brokerFirmLicense: license, firstName: 'Tara' })
    const carol = await agent({ brokerFirmLicense: license, firstName: 'Carol', lastName: 'Chen' })
    const dan = await agent({ brokerFirmLicense: license, firstName: 'Dan' })
    const teamId = await teamOf(lead, [carol, dan])
    const oh = await scheduleFor(t, lead, carol.agent.id, { publishLevel: 'Real Estate Team' })
    const mine = await t.call('GET', `/openhousemgmt/getMyUpcomingOH/${lead.agent.id}`, { token: lead.token })
    const listed = mine.body.data.find((o: { id: number }) => o.id === oh.id)
    expect(listed).toMatchObject({ listingREAgentName: 'Carol Chen', scheduledByREAgentId: lead.agent.id })
    expect(listed.permissions).toEqual(expect.arrayContaining(['edit', 'publish', 'cancel']))
    const asCarol = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: carol.token })
    expect(asCarol.body.data.permissions).toEqual(expect.arrayContaining(['publish']))

    const published = await t.call(
      'POST',
      `/openhousemgmt/publishOpenHouseOpportunity/${oh.id}/${carol.agent.id}/Real%20Estate%20Team`,
      { token: lead.token },
    )
    expect(published.status).toBe(200)
    expect(published.body.data.publishLevelId).toBe(String(teamId))
    // The listing agent publishes a second one at the level its lead chose (its own role could not pick it).
    const second = await scheduleFor(t, lead, carol.agent.id, {
      publishLevel: 'Real Estate Team',
      scheduledStartTime: '4:00 PM',
      scheduledEndTime: '5:00 PM',
    })
    const byCarol = await t.call(
      'POST',
      `/openhousemgmt/publishOpenHouseOpportunity/${second.id}/${carol.agent.id}/Real%20Estate%20Team`,
      { token: carol.token },
    )
    expect(byCarol.status).toBe(200)
    const danClaims = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${dan.agent.id}`, {
      token: dan.token,
    })
    expect(danClaims.status).toBe(200)
    // Every 422 names its field.
    const wrong = await t.call(
      'POST',
      `/openhousemgmt/publishOpenHouseOpportunity/${second.id}/${carol.agent.id}/Partnered%20Team`,
      {
        token: lead.token,
      },
    )
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors[0].field).toBe('publishLevel')
    expect(wrong.body.errors[0].message).toMatch(/Partnered Team/)
  })

  it('stops acting for an agent once it left the team', async () => {
    const license = firm()
    const lead = await agent({ role: 'Team Lead', brokerFirmLicense: license })
    const carol = await agent({ brokerFirmLicense: license })
    const teamId = await teamOf(lead, [carol])
    const oh = await scheduleFor(t, lead, carol.agent.id)
    const left = await t.call('POST', `/reteammgmt/declineTeamInvitation/${teamId}`, { token: carol.token })
    expect(left.status).toBe(200)
    const cancel = { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true }
    expect(
      (await t.call('POST', '/openhousemgmt/cancelOpenHouse', { token: lead.token, body: cancel })).status,
    ).toBe(404)
    expect((await openHouseRow(oh.id)).openHouseCanceledFlag).toBe(false)
  })
})

describe('9. the rules live in one place', () => {
  it('keeps the socket layer free of repositories: it asks the policy', () => {
    const dir = path.resolve(import.meta.dirname, '../../server/src/realtime')
    for (const file of fs.readdirSync(dir)) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8')
      expect(source, file).not.toMatch(/from '\.\.\/modules\/[\w-]+\/repo\.ts'/)
    }
  })
})
