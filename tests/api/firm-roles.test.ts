import { randomBytes } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import {
  makePlannedAgent,
  makeTeam,
  makeValidatedUser,
  scheduleFields,
  validAgentFields,
} from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

// Roles are granted, never typed (issue 37, N1, N6, N9): the audit's attacks, reproduced as measured,
// and the grants, revocations and firm decisions that replace them, each one conditional write.

const ADMIN_TOKEN = randomBytes(24).toString('hex')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({
    env: { ADMIN_TOKEN },
    configure: (config) => {
      config.rateLimit.max = 100_000
    },
  })
})
afterAll(() => t?.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const firm = () => `ROLES-${randomBytes(4).toString('hex')}`
const agent = (overrides: Parameters<typeof makePlannedAgent>[1] = {}) => makePlannedAgent(t.db, overrides)

/** A user who signs up through the API asking for `role` in firm `license` (pending until approved). */
async function signUp(license: string, role: string, fields: Record<string, unknown> = {}) {
  const user = await makeValidatedUser(t)
  const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
    token: user.token,
    body: {
      ...validAgentFields(user.email, { reAgentBrokerFirmLicense: license, reAgentRole: role, ...fields }),
      porchlightUserId: user.userId,
    },
  })
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  return { ...user, agent: res.body.data as { id: number; reAgentRole: string; requestedRole: string } }
}

/** The agent edits its own profile, typing `role` (and anything else) as it likes. */
async function typeRole(who: Agent, role: string) {
  const { porchlightUserId: _u, id: _i, createdDate: _c, updatedDate: _d, ...profile } = who.agent
  return t.call('PATCH', `/reagentmgmt/${who.agent.id}`, {
    token: who.token,
    body: { ...profile, reAgentRole: role, requestedRole: role, reAgentDateOfBirth: null },
  })
}

const row = (id: number) =>
  t.db.selectFrom('reAgent').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const mailsTo = (email: string) =>
  t.db
    .selectFrom('mail')
    .select(['subject', 'textBody'])
    .where('toAddress', '=', email)
    .orderBy('id')
    .execute()
const grantsOf = (id: number) =>
  t.db
    .selectFrom('reAgentRoleGrant')
    .select(['reAgentRole', 'previousRole', 'grantedByReAgentId', 'byOperator', 'reason'])
    .where('reAgentId', '=', id)
    .orderBy('id')
    .execute()

const approve = (who: { token: string }, id: number, currentStatus?: string) =>
  t.call('POST', `/reagentmgmt/approveFirmMember/${id}`, {
    token: who.token,
    body: currentStatus ? { currentStatus } : undefined,
  })
const decline = (who: { token: string }, id: number, currentStatus?: string) =>
  t.call('POST', `/reagentmgmt/declineFirmMember/${id}`, {
    token: who.token,
    body: currentStatus ? { currentStatus } : undefined,
  })
const grant = (who: { token: string } | null, id: number, reAgentRole: string) =>
  t.call('POST', `/reagentmgmt/grantFirmRole/${id}`, { token: who?.token, body: { reAgentRole } })
const operatorGrant = (id: number, reAgentRole: string, token = ADMIN_TOKEN) =>
  t.call('POST', `/admin/grantFirmRole/${id}`, { token, body: { reAgentRole } })

describe('a role is asked for at sign-up and held only once granted', () => {
  it('records the role asked for as requested and holds Real Estate Agent', async () => {
    const asking = await signUp(firm(), 'Team Lead')
    expect(asking.agent.reAgentRole).toBe('Real Estate Agent')
    expect(asking.agent.requestedRole).toBe('Team Lead')
  })

  it('keeps SPEC’s license exemption for an agent asking to be an Admin Team Member', async () => {
    const fields = { reAgentLicensedState: null, reAgentLicenseNumber: null, reAgentResidenceZipCode: null }
    const assistant = await signUp(firm(), 'Admin Team Member', fields)
    expect(assistant.agent).toMatchObject({
      reAgentRole: 'Real Estate Agent',
      requestedRole: 'Admin Team Member',
    })
    const user = await makeValidatedUser(t)
    const plain = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: { ...validAgentFields(user.email, fields), porchlightUserId: user.userId },
    })
    expect(plain.status).toBe(422)
  })
})

describe('N1: a self-edited role grants no firm authority', () => {
  it('refuses a verified plain agent that typed Team Lead, and leaves the real lead in charge', async () => {
    const license = firm()
    // The firm's real lead, verified and granted by the operator.
    const lead = await signUp(license, 'Team Lead')
    expect(
      (await t.call('POST', `/admin/verifyFirmMember/${lead.agent.id}`, { token: ADMIN_TOKEN })).status,
    ).toBe(200)
    expect((await operatorGrant(lead.agent.id, 'Team Lead')).status).toBe(200)
    const colleagues = [
      await agent({ brokerFirmLicense: license }),
      await agent({ brokerFirmLicense: license }),
    ]
    const plain = await agent({ brokerFirmLicense: license })
    const puppet = await signUp(license, 'Real Estate Agent')

    const typed = await typeRole(plain, 'Team Lead')
    expect(typed.status).toBe(200)
    expect(typed.body.data.reAgentRole).toBe('Real Estate Agent')
    expect((await row(plain.agent.id)).reAgentRole).toBe('Real Estate Agent')

    const before = await Promise.all(
      [lead.agent.id, puppet.agent.id, ...colleagues.map((c) => c.agent.id)].map(row),
    )
    // The sock-puppet is not seen by a plain member (404); the lead and colleagues are, by name (403).
    expect((await approve(plain, puppet.agent.id)).status).toBe(404)
    expect((await decline(plain, lead.agent.id, 'verified')).status).toBe(403)
    for (const c of colleagues) expect((await decline(plain, c.agent.id, 'verified')).status).toBe(403)
    expect((await grant(plain, plain.agent.id, 'Team Lead')).status).toBe(403)
    expect((await grant(plain, lead.agent.id, 'Real Estate Agent')).status).toBe(403)
    const roster = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: puppet.token,
    })
    expect(roster.status).toBe(403)
    expect(
      await Promise.all([lead.agent.id, puppet.agent.id, ...colleagues.map((c) => c.agent.id)].map(row)),
    ).toEqual(before)

    // The real lead is not locked out: it decides, and grants.
    expect((await decline(lead, puppet.agent.id)).status).toBe(200)
    expect((await grant(lead, plain.agent.id, 'Admin Team Member')).status).toBe(200)
    const seen = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: lead.token,
    })
    expect(seen.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: puppet.agent.id, firmMembershipStatus: 'declined' }),
        expect.objectContaining({ id: plain.agent.id, reAgentRole: 'Admin Team Member' }),
      ]),
    )
  })
})

describe('N6: a teammate that typed Admin Team Member acts for nobody', () => {
  it('refuses to create, publish or cancel an open house listed under a colleague', async () => {
    const license = firm()
    const lead = await agent({ brokerFirmLicense: license, role: 'Team Lead' })
    const colleague = await agent({ brokerFirmLicense: license })
    const mate = await agent({ brokerFirmLicense: license })
    await makeTeam(t.db, lead, [colleague, mate])
    expect((await typeRole(mate, 'Admin Team Member')).body.data.reAgentRole).toBe('Real Estate Agent')

    const property = await t.call('POST', '/propertymgmt/saveREProperty', {
      token: mate.token,
      body: (await import('../support/factories.ts')).propertyFields(),
    })
    const created = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: mate.token,
      body: scheduleFields(property.body.data.id, { listingREAgentId: colleague.agent.id }),
    })
    expect(created.status).toBe(422)
    const count = await t.db
      .selectFrom('openHouse')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('listingReAgentId', '=', colleague.agent.id)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(0)

    const oh = await scheduleOpenHouse(t, colleague)
    const before = await t.db
      .selectFrom('openHouse')
      .selectAll()
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect((await publish(t, mate, oh.id, 'Open To All')).status).toBe(404)
    const cancel = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: mate.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(cancel.status).toBe(404)
    expect(
      await t.db.selectFrom('openHouse').selectAll().where('id', '=', oh.id).executeTakeFirstOrThrow(),
    ).toEqual(before)
  })
})

describe('a verified Team Lead or the operator grants and revokes roles', () => {
  it('lets the lead grant and revoke, records who and when, and mails the agent', async () => {
    const license = firm()
    const lead = await agent({ brokerFirmLicense: license, role: 'Team Lead', firstName: 'Lena' })
    const member = await agent({ brokerFirmLicense: license })
    const granted = await grant(lead, member.agent.id, 'Admin Team Member')
    expect(granted.status).toBe(200)
    expect(granted.body.data.reAgentRole).toBe('Admin Team Member')
    expect((await grant(lead, member.agent.id, 'Admin Team Member')).body.error.code).toBe('ROLE_HELD')
    const revoked = await grant(lead, member.agent.id, 'Real Estate Agent')
    expect(revoked.body.data.reAgentRole).toBe('Real Estate Agent')
    expect(await grantsOf(member.agent.id)).toEqual([
      {
        reAgentRole: 'Admin Team Member',
        previousRole: 'Real Estate Agent',
        grantedByReAgentId: lead.agent.id,
        byOperator: false,
        reason: 'granted',
      },
      {
        reAgentRole: 'Real Estate Agent',
        previousRole: 'Admin Team Member',
        grantedByReAgentId: lead.agent.id,
        byOperator: false,
        reason: 'granted',
      },
    ])
    const mails = await mailsTo(member.user.porchlightUserEmailId)
    expect(mails.map((m) => m.subject)).toEqual([
      'You are now Admin Team Member at Peachtree Realty',
      'You are no longer Admin Team Member at Peachtree Realty',
    ])
    expect(mails[0]?.textBody).toContain(
      `Lena ${lead.agent.reAgentLastName} granted you the Admin Team Member role`,
    )

    // Firm Members shows the role held, the role asked for, and who granted it when.
    await grant(lead, member.agent.id, 'Team Lead')
    const roster = await t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${license}`, {
      token: lead.token,
    })
    const shown = roster.body.data.find((m: { id: number }) => m.id === member.agent.id)
    expect(shown).toMatchObject({
      reAgentRole: 'Team Lead',
      requestedRole: 'Real Estate Agent',
      roleGrantedBy: `Lena ${lead.agent.reAgentLastName}`,
    })
    expect(Date.now() - Date.parse(shown.roleGrantedAt)).toBeLessThan(60_000)
  })

  it('refuses everyone else: Admin Team Member, plain, pending, another firm’s lead, itself, no session', async () => {
    const license = firm()
    const lead = await agent({ brokerFirmLicense: license, role: 'Team Lead' })
    const admin = await agent({ brokerFirmLicense: license, role: 'Admin Team Member' })
    const plain = await agent({ brokerFirmLicense: license })
    const pending = await agent({ brokerFirmLicense: license, firmStatus: 'pending' })
    const outsider = await agent({ brokerFirmLicense: firm(), role: 'Team Lead' })
    const target = await agent({ brokerFirmLicense: license })
    const before = await row(target.agent.id)
    const answers = {
      admin: (await grant(admin, target.agent.id, 'Team Lead')).status,
      plain: (await grant(plain, target.agent.id, 'Team Lead')).status,
      pending: (await grant(pending, target.agent.id, 'Team Lead')).status,
      outsider: (await grant(outsider, target.agent.id, 'Team Lead')).status,
      self: (await grant(admin, admin.agent.id, 'Team Lead')).status,
      leadSelf: (await grant(lead, lead.agent.id, 'Admin Team Member')).status,
      anonymous: (await grant(null, target.agent.id, 'Team Lead')).status,
      operatorWithoutToken: (await operatorGrant(target.agent.id, 'Team Lead', 'x'.repeat(48))).status,
    }
    expect(answers).toEqual({
      admin: 403,
      plain: 403,
      pending: 404,
      outsider: 404,
      self: 403,
      leadSelf: 403,
      anonymous: 403,
      operatorWithoutToken: 404,
    })
    expect(await row(target.agent.id)).toEqual(before)
    expect(await grantsOf(target.agent.id)).toEqual([])
    // A pending applicant is approved first.
    const refused = await grant(lead, pending.agent.id, 'Admin Team Member')
    expect(refused.status).toBe(409)
    expect(refused.body.error).toEqual({ code: 'NOT_VERIFIED', message: messages.roleNeedsVerifiedMember })
  })

  it('keeps a firm’s last verified Team Lead: only the operator demotes it', async () => {
    const license = firm()
    const [one, two] = [
      await agent({ brokerFirmLicense: license, role: 'Team Lead' }),
      await agent({ brokerFirmLicense: license, role: 'Team Lead' }),
    ]
    // Each demotes the other at the same moment: exactly one wins (the other is no lead any more by
    // the time its write runs), and the firm keeps one lead.
    const answers = await Promise.all([
      grant(one, two.agent.id, 'Real Estate Agent'),
      grant(two, one.agent.id, 'Real Estate Agent'),
    ])
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.find((a) => a.status !== 200)?.status).toBe(403)
    const leads = await t.db
      .selectFrom('reAgent')
      .select('id')
      .where('reAgentBrokerFirmLicense', '=', license)
      .where('reAgentRole', '=', 'Team Lead')
      .execute()
    expect(leads).toHaveLength(1)
    const last = leads[0]?.id === one.agent.id ? one : two
    const demoted = last === one ? two : one

    // Nobody else of the firm declines or demotes the last lead.
    const admin = await agent({ brokerFirmLicense: license, role: 'Admin Team Member' })
    expect((await decline(admin, last.agent.id, 'verified')).status).toBe(403)
    expect((await grant(demoted, last.agent.id, 'Real Estate Agent')).status).toBe(403)
    expect((await row(last.agent.id)).reAgentRole).toBe('Team Lead')

    // The operator may.
    const byOperator = await operatorGrant(last.agent.id, 'Real Estate Agent')
    expect(byOperator.status).toBe(200)
    expect((await grantsOf(last.agent.id)).at(-1)).toEqual({
      reAgentRole: 'Real Estate Agent',
      previousRole: 'Team Lead',
      grantedByReAgentId: null,
      byOperator: true,
      reason: 'granted',
    })
  })

  it('takes a declined member’s granted role with its membership', async () => {
    const license = firm()
    const lead = await agent({ brokerFirmLicense: license, role: 'Team Lead' })
    const other = await agent({ brokerFirmLicense: license, role: 'Team Lead' })
    expect((await decline(lead, other.agent.id)).body.error.code).toBe('ALREADY_DECIDED')
    expect((await approve(lead, other.agent.id, 'verified')).body.error).toEqual({
      code: 'ALREADY_DECIDED',
      message: messages.firmDecisionSame,
    })
    expect(await mailsTo(other.user.porchlightUserEmailId)).toEqual([])
    const res = await decline(lead, other.agent.id, 'verified')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      firmMembershipStatus: 'declined',
      reAgentRole: 'Real Estate Agent',
    })
    expect((await grantsOf(other.agent.id)).at(-1)).toMatchObject({
      previousRole: 'Team Lead',
      reason: 'declined',
    })
    // The last lead itself cannot be declined by anyone of the firm (no one else may decide on a lead).
    expect((await decline(lead, lead.agent.id, 'verified')).status).toBe(403)
  })
})

describe('N9: a firm decision is one conditional write', () => {
  it('gives approve and decline of one applicant, sent at the same moment, exactly one winner and one mail (40 rounds)', async () => {
    const license = firm()
    const lead = await agent({ brokerFirmLicense: license, role: 'Team Lead' })
    const admin = await agent({ brokerFirmLicense: license, role: 'Admin Team Member' })
    const problems: string[] = []
    for (let round = 0; round < 40; round++) {
      const applicant = await agent({ brokerFirmLicense: license, firmStatus: 'pending' })
      const [approved, declined] = await Promise.all([
        approve(round % 2 ? lead : admin, applicant.agent.id),
        decline(round % 2 ? admin : lead, applicant.agent.id),
      ])
      const statuses = [approved.status, declined.status]
      const loser = [approved, declined].find((a) => a.status === 409)
      const mails = await mailsTo(applicant.user.porchlightUserEmailId)
      const status = (await row(applicant.agent.id)).firmMembershipStatus
      const winner = approved.status === 200 ? 'verified' : 'declined'
      if (
        statuses.sort().join() !== '200,409' ||
        loser?.body.error.code !== 'ALREADY_DECIDED' ||
        mails.length !== 1 ||
        status !== winner
      ) {
        problems.push(`round ${round}: ${statuses.join('/')}, ${mails.length} mails, ${status}`)
      }
    }
    expect(problems).toEqual([])
  })
})
