import { annualPrice, messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeValidatedUser, validAgentFields } from '../support/factories.ts'

let t: TestApp
let plans: Array<{
  id: number
  pricingPlanTitle: string
  pricingPlanPriceMonthly: number
  pricingPlanPriceAnnualDiscPerc: number
}>

beforeAll(async () => {
  t = await buildTestApp()
  plans = (await t.call('GET', '/pricingplanmgmt/getAllOfferedPricingPlans/0')).body.data
})
afterAll(() => t.close())

const plan = (title: string) => {
  const found = plans.find((p) => p.pricingPlanTitle === title)
  if (!found) throw new Error(`no plan ${title}`)
  return found
}

async function agent() {
  const user = await makeValidatedUser(t)
  const res = await t.call('POST', '/reagentmgmt/saveREAgent', {
    token: user.token,
    body: { ...validAgentFields(user.email), porchlightUserId: user.userId },
  })
  return { ...user, agentId: res.body.data.id as number }
}

const DAY = 86_400_000

describe('choosing a pricing plan', () => {
  it('starts a 30-day monthly purchase at the monthly price, unpaid and not auto-renewing', async () => {
    const me = await agent()
    const team = plan('Team')
    const res = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: team.id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    expect(res.status).toBe(201)
    const p = res.body.data
    expect(p).toMatchObject({
      pricingPlanId: team.id,
      reAgentId: me.agentId,
      pricingPlanFrequency: 'Monthly',
      totalReceivable: team.pricingPlanPriceMonthly,
      totalPaid: 0,
      autoRenew: false,
      pricingPlanActiveFlag: true,
    })
    expect(Date.parse(p.pricingPlanEndDate) - Date.parse(p.pricingPlanStartDate)).toBe(30 * DAY)
  })

  it('prices a yearly purchase at the discounted annual price for 365 days, and replaces the old one', async () => {
    const me = await agent()
    const solo = plan('Solo')
    await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: solo.id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    const team = plan('Team')
    const res = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: team.id, reAgentId: me.agentId, pricingPlanFrequency: 'Yearly' },
    })
    expect(res.body.data.totalReceivable).toBe(
      annualPrice(team.pricingPlanPriceMonthly, team.pricingPlanPriceAnnualDiscPerc),
    )
    expect(
      Date.parse(res.body.data.pricingPlanEndDate) - Date.parse(res.body.data.pricingPlanStartDate),
    ).toBe(365 * DAY)
    const active = await t.call('GET', `/pricingplanmgmt/getActivePricingPlan/${me.agentId}`, {
      token: me.token,
    })
    expect(active.body.data.plan.pricingPlanTitle).toBe('Team')
    const rows = await t.db
      .selectFrom('pricingPlanPurchase')
      .select('pricingPlanActiveFlag')
      .where('reAgentId', '=', me.agentId)
      .execute()
    expect(rows.filter((r) => r.pricingPlanActiveFlag)).toHaveLength(1)
  })

  it('changes a plan in place', async () => {
    const me = await agent()
    const first = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: plan('Solo').id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    const changed = await t.call('PATCH', `/pricingplanmgmt/addPricingPlanToREAgent/${first.body.data.id}`, {
      token: me.token,
      body: { pricingPlanId: plan('Brokerage').id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    expect(changed.body.data).toMatchObject({ id: first.body.data.id, pricingPlanId: plan('Brokerage').id })
  })

  it("refuses to choose a plan for another agent, or a plan that isn't offered", async () => {
    const me = await agent()
    const other = await agent()
    const theirs = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: plan('Solo').id, reAgentId: other.agentId, pricingPlanFrequency: 'Monthly' },
    })
    expect(theirs.status).toBe(403)
    const missing = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: 999_999, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    expect(missing.status).toBe(404)
  })

  it('reports the plan utilisation in the SPEC shape, and sign-in carries it', async () => {
    const me = await agent()
    await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: plan('Solo').id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    const res = await t.call('GET', `/pricingplanmgmt/getPlanUtilization/${me.agentId}`, { token: me.token })
    expect(res.body.data).toEqual({
      pricePlan: { numberOfOpenHousesCreate: 24, numberOfOpenHousesPublish: 12, numberOfTeamsCreate: 0 },
      pricingPlanUtilization: {
        totalCreatedOpenHouses: 0,
        totalPublishedOpenHouses: 0,
        totalCreatedTeams: 0,
      },
    })
    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: me.email, porchlightUserPass: me.password },
    })
    expect(signIn.body.data.activePlan).toEqual(res.body.data)
    const other = await agent()
    expect(
      (await t.call('GET', `/pricingplanmgmt/getPlanUtilization/${me.agentId}`, { token: other.token }))
        .status,
    ).toBe(403)
  })

  it('treats an expired purchase as no plan', async () => {
    const me = await agent()
    await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
      token: me.token,
      body: { pricingPlanId: plan('Solo').id, reAgentId: me.agentId, pricingPlanFrequency: 'Monthly' },
    })
    await t.db
      .updateTable('pricingPlanPurchase')
      // As if chosen 31 days ago.
      .set({
        pricingPlanStartDate: new Date(Date.now() - 31 * DAY),
        pricingPlanEndDate: new Date(Date.now() - DAY),
      })
      .where('reAgentId', '=', me.agentId)
      .execute()
    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: me.email, porchlightUserPass: me.password },
    })
    expect(signIn.body.data.activePlan).toBeNull()
    const res = await t.call('GET', `/pricingplanmgmt/getPlanUtilization/${me.agentId}`, { token: me.token })
    expect(res.status).toBe(402)
    expect(res.body.error.code).toBe('NO_ACTIVE_PLAN')
  })
})

describe('license gate', () => {
  it('answers the SPEC text to an agent whose license is not valid', async () => {
    const me = await agent()
    await t.db
      .updateTable('reAgent')
      .set({ reAgentLicenseValidityFlag: false })
      .where('id', '=', me.agentId)
      .execute()
    for (const path of [
      `/pricingplanmgmt/getPlanUtilization/${me.agentId}`,
      `/pricingplanmgmt/getActivePricingPlan/${me.agentId}`,
    ]) {
      const res = await t.call('GET', path, { token: me.token })
      expect(res.status).toBe(403)
      expect(res.body.error).toEqual({ code: 'LICENSE_INVALID', message: messages.licenseNotValid })
    }
  })
})
