import { PricingPlan, UNLIMITED } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('offered pricing plans', () => {
  it('lists a free Solo plan and paid Team and Brokerage plans, to anyone', async () => {
    const res = await fetch(`${t.url}/api/pricingplanmgmt/getAllOfferedPricingPlans/0`)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    const plans = data.map((p: unknown) => PricingPlan.parse(p))
    expect(plans.map((p: PricingPlan) => p.pricingPlanTitle)).toEqual(['Solo', 'Team', 'Brokerage'])
    const [solo, team, brokerage] = plans as PricingPlan[]
    expect(solo?.pricingPlanPriceMonthly).toBe(0)
    expect(team?.pricingPlanPriceMonthly).toBeGreaterThan(0)
    expect(brokerage?.numberOfOpenHousesCreate).toBe(UNLIMITED)
  })
})
