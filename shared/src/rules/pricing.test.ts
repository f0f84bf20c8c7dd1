import { describe, expect, it } from 'vitest'
import { planOfferedTo, UNLIMITED } from './pricing.ts'

const solo = { numberOfTeamsCreate: 0, numberOfOpenHousesCreate: 24 }
const team = { numberOfTeamsCreate: 3, numberOfOpenHousesCreate: 240 }
const brokerage = { numberOfTeamsCreate: 20, numberOfOpenHousesCreate: UNLIMITED }

describe('planOfferedTo', () => {
  it('offers every plan to a Team Lead, who may create teams', () => {
    expect([solo, team, brokerage].map((p) => planOfferedTo(p, 'Team Lead'))).toEqual([true, true, true])
  })

  it('does not offer a plan sold for its teams to roles that cannot create teams', () => {
    for (const role of ['Real Estate Agent', 'Admin Team Member']) {
      expect([solo, team, brokerage].map((p) => planOfferedTo(p, role))).toEqual([true, false, true])
    }
  })
})
