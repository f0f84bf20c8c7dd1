import { describe, expect, it } from 'vitest'
import { type Actor, type AgentFacts, mayDecideFirmMembership, mayGrantFirmRole } from './policy.ts'
import { anActor } from './test-fixtures.ts'

const actor = (role: string, overrides: Partial<Actor> = {}): Actor => anActor({ role, ...overrides })
const member = (overrides: Partial<AgentFacts> = {}): AgentFacts => ({
  id: 2,
  firmLicense: 'FIRM-1',
  firmVerified: true,
  role: 'Real Estate Agent',
  ...overrides,
})

describe('mayGrantFirmRole', () => {
  it('lets a verified Team Lead grant to another member of its firm', () => {
    expect(mayGrantFirmRole(actor('Team Lead'), member())).toBe(true)
    expect(mayGrantFirmRole(actor('Team Lead'), member({ role: 'Team Lead' }))).toBe(true)
  })

  it('refuses an Admin Team Member, a plain agent, an unverified lead, another firm and itself', () => {
    expect(mayGrantFirmRole(actor('Admin Team Member'), member())).toBe(false)
    expect(mayGrantFirmRole(actor('Real Estate Agent'), member())).toBe(false)
    expect(mayGrantFirmRole(actor('Team Lead', { firmVerified: false }), member())).toBe(false)
    expect(mayGrantFirmRole(actor('Team Lead'), member({ firmLicense: 'FIRM-2' }))).toBe(false)
    expect(mayGrantFirmRole(actor('Team Lead'), member({ id: 1 }))).toBe(false)
  })
})

describe('mayDecideFirmMembership', () => {
  it('lets a verified Team Lead or Admin Team Member decide on a plain member', () => {
    expect(mayDecideFirmMembership(actor('Team Lead'), member())).toBe(true)
    expect(mayDecideFirmMembership(actor('Admin Team Member'), member())).toBe(true)
  })

  it('leaves a member holding a granted role to a Team Lead', () => {
    for (const role of ['Team Lead', 'Admin Team Member']) {
      expect(mayDecideFirmMembership(actor('Admin Team Member'), member({ role }))).toBe(false)
      expect(mayDecideFirmMembership(actor('Team Lead'), member({ role }))).toBe(true)
    }
  })

  it('refuses a plain agent, itself and another firm', () => {
    expect(mayDecideFirmMembership(actor('Real Estate Agent'), member())).toBe(false)
    expect(mayDecideFirmMembership(actor('Team Lead'), member({ id: 1 }))).toBe(false)
    expect(mayDecideFirmMembership(actor('Team Lead'), member({ firmLicense: 'FIRM-2' }))).toBe(false)
  })
})
