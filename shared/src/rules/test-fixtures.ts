import type { Actor } from './policy.ts'

/** A verified agent of FIRM-1 (id 1) on no team, for the policy's unit tests. */
export const anActor = (overrides: Partial<Actor> = {}): Actor => ({
  id: 1,
  role: 'Real Estate Agent',
  firmLicense: 'FIRM-1',
  firmVerified: true,
  teamIds: [],
  teammateIds: [],
  actsForIds: [],
  ledTeamIds: [],
  ...overrides,
})
