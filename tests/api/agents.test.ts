import { latestDateOfBirth, messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeValidatedUser, validAgentFields } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

async function agentFor(overrides: Record<string, unknown> = {}) {
  const user = await makeValidatedUser(t)
  const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
    token: user.token,
    body: { ...validAgentFields(user.email, overrides), porchlightUserId: user.userId },
  })
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  return { ...user, agent: res.body.data }
}

const fieldsOf = (body: { errors?: Array<{ field: string }> }) =>
  (body.errors ?? []).map((e) => e.field).sort()

describe('agent profiles', () => {
  it('creates the profile of the signed-in user, always with a valid license', async () => {
    const user = await makeValidatedUser(t)
    const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: {
        ...validAgentFields(user.email),
        reAgentLicenseValidityFlag: 'false',
        porchlightUserId: user.userId,
      },
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      porchlightUserId: user.userId,
      reAgentFirstName: 'Riley',
      reAgentLicenseValidityFlag: true,
      reAgentResidenceZipCode: '30004',
    })
    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: user.email, porchlightUserPass: user.password },
    })
    // Profile but no plan yet: the web goes to /pricingplanexpired.
    expect(signIn.body.data.realEstateAgentDTO.id).toBe(res.body.data.id)
    expect(signIn.body.data.activePlan).toBeNull()
  })

  it('needs a session, and only for the user it belongs to', async () => {
    const user = await makeValidatedUser(t)
    const other = await makeValidatedUser(t)
    const body = { ...validAgentFields(user.email), porchlightUserId: user.userId }
    const anonymous = await t.call('POST', '/reagentmgmt/saveREAgent', { body })
    expect(anonymous.status).toBe(403)
    expect(anonymous.body.error.code).toBe('SESSION_EXPIRED')
    expect((await t.call('POST', '/reagentmgmt/saveREAgent', { token: other.token, body })).status).toBe(403)
  })

  it('lists every missing or wrong field', async () => {
    const user = await makeValidatedUser(t)
    const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: {
        ...validAgentFields('bad-email', {
          reAgentFirstName: '',
          reAgentLicensedState: null,
          reAgentLicenseNumber: '',
          reAgentResidenceZipCode: '9999',
          reAgentPhoneCountryCode: 'Mexico',
          reAgentDateOfBirth: latestDateOfBirth(new Date(Date.now() + 86_400_000 * 2)),
        }),
        porchlightUserId: user.userId,
      },
    })
    expect(res.status).toBe(422)
    expect(fieldsOf(res.body)).toEqual([
      'reAgentDateOfBirth',
      'reAgentEmailId',
      'reAgentFirstName',
      'reAgentPhoneCountryCode',
      'reAgentResidenceZipCode',
    ])
    expect(res.body.errors).toContainEqual({ field: 'reAgentEmailId', message: messages.emailIdNotValid })
  })

  it('requires licensed state, license number and zip unless the role is Admin Team Member', async () => {
    const user = await makeValidatedUser(t)
    const without = { reAgentLicensedState: null, reAgentLicenseNumber: null, reAgentResidenceZipCode: null }
    const agent = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: { ...validAgentFields(user.email, without), porchlightUserId: user.userId },
    })
    expect(agent.status).toBe(422)
    expect(fieldsOf(agent.body)).toEqual([
      'reAgentLicenseNumber',
      'reAgentLicensedState',
      'reAgentResidenceZipCode',
    ])

    const admin = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: {
        ...validAgentFields(user.email, { ...without, reAgentRole: 'Admin Team Member' }),
        porchlightUserId: user.userId,
      },
    })
    expect(admin.status).toBe(201)
  })

  it('accepts a date of birth exactly 18 years back and a zip of 10000', async () => {
    const created = await agentFor({
      reAgentDateOfBirth: latestDateOfBirth(),
      reAgentResidenceZipCode: 10000,
    })
    expect(created.agent.reAgentDateOfBirth).toBe(latestDateOfBirth())
    expect(created.agent.reAgentResidenceZipCode).toBe('10000')
  })

  it('refuses an email another agent already uses', async () => {
    const first = await agentFor()
    const user = await makeValidatedUser(t)
    const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
      token: user.token,
      body: { ...validAgentFields(first.email.toUpperCase()), porchlightUserId: user.userId },
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'EMAIL_EXISTS', message: messages.emailIdAlreadyExists })
  })

  it('updates the editable fields and keeps the read-only ones', async () => {
    const me = await agentFor()
    const res = await t.call('PATCH', `/reagentmgmt/${me.agent.id}`, {
      token: me.token,
      body: {
        ...validAgentFields('changed@example.com', {
          reAgentFirstName: 'Robin',
          reAgentLicenseNumber: 'FORGED-1',
          reAgentBrokerFirmLicense: 'OTHER-FIRM',
          reAgentBrokerFirmName: 'Other Realty',
        }),
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      reAgentFirstName: 'Robin',
      reAgentEmailId: me.email,
      reAgentLicenseNumber: 'GA-778899',
      reAgentBrokerFirmLicense: 'FIRM-001',
      reAgentBrokerFirmName: 'Peachtree Realty',
    })
  })

  it("keeps agent B out of agent A's profile", async () => {
    const a = await agentFor({ reAgentBrokerFirmLicense: 'FIRM-A' })
    const b = await agentFor({ reAgentBrokerFirmLicense: 'FIRM-B' })
    const patch = await t.call('PATCH', `/reagentmgmt/${a.agent.id}`, {
      token: b.token,
      body: validAgentFields(a.email, { reAgentFirstName: 'Mallory' }),
    })
    expect(patch.status).toBe(403)
    const read = await t.call('GET', `/reagentmgmt/getREAgentDetails/${a.agent.id}`, { token: b.token })
    expect(read.status).toBe(404)
    const list = await t.call('GET', '/reagentmgmt/getREAgentsByBrokerFirmLicense/FIRM-A', { token: b.token })
    expect(list.status).toBe(403)
    expect(
      (await t.call('GET', `/reagentmgmt/getREAgentDetails/${a.agent.id}`, { token: a.token })).status,
    ).toBe(200)
  })

  it('shows verified agents of the same firm to each other by name only; a typed license shows nothing', async () => {
    const a = await agentFor({ reAgentBrokerFirmLicense: 'FIRM-SAME' })
    const b = await agentFor({ reAgentBrokerFirmLicense: 'FIRM-SAME' })
    // Self-declared: a new profile's membership is pending, so the firm stays closed to it.
    expect(a.agent.firmMembershipStatus).toBe('pending')
    expect(
      (await t.call('GET', `/reagentmgmt/getREAgentDetails/${a.agent.id}`, { token: b.token })).status,
    ).toBe(404)
    expect(
      (await t.call('GET', '/reagentmgmt/getREAgentsByBrokerFirmLicense/FIRM-SAME', { token: b.token }))
        .status,
    ).toBe(403)

    await t.db
      .updateTable('reAgent')
      .set({ firmMembershipStatus: 'verified' })
      .where('id', 'in', [a.agent.id, b.agent.id])
      .execute()
    const seen = await t.call('GET', `/reagentmgmt/getREAgentDetails/${a.agent.id}`, { token: b.token })
    expect(seen.status).toBe(200)
    expect(seen.body.data).toMatchObject({ id: a.agent.id, reAgentEmailId: null, reAgentPhoneNumber: null })
    expect(seen.body.data).not.toHaveProperty('reAgentLicenseNumber')
    expect(seen.body.data).not.toHaveProperty('reAgentDateOfBirth')
    const list = await t.call('GET', '/reagentmgmt/getREAgentsByBrokerFirmLicense/FIRM-SAME', {
      token: b.token,
    })
    expect(list.body.data.map((x: { id: number }) => x.id)).toEqual([a.agent.id])
    expect(list.body.data[0].reAgentEmailId).toBeNull()
  })
})
