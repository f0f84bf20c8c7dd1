import { randomBytes } from 'node:crypto'
import type { Db } from '@porchlight/server/src/db/database.ts'
import { createSessionService } from '@porchlight/server/src/modules/auth/sessions.ts'

const unique = () => randomBytes(4).toString('hex')

export async function makeUser(db: Db, overrides: { email?: string; enabled?: boolean } = {}) {
  return db
    .insertInto('porchlightUser')
    .values({
      porchlightUserEmailId: overrides.email ?? `agent-${unique()}@example.com`,
      porchlightUserPass: 'not-a-real-hash',
      userEnabled: overrides.enabled ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface AgentOverrides {
  firstName?: string
  lastName?: string
  role?: 'Real Estate Agent' | 'Team Lead' | 'Admin Team Member'
  brokerFirmLicense?: string
  licenseValid?: boolean
}

/** A user with an agent profile and a signed-in session token. */
export async function makeAgent(db: Db, overrides: AgentOverrides = {}) {
  const user = await makeUser(db)
  const agent = await db
    .insertInto('reAgent')
    .values({
      porchlightUserId: user.id,
      reAgentFirstName: overrides.firstName ?? 'Avery',
      reAgentLastName: overrides.lastName ?? `Agent${unique()}`,
      reAgentEmailId: user.porchlightUserEmailId,
      reAgentPhoneCountryCode: 'United States',
      reAgentPhoneNumber: '4045550100',
      reAgentLicensedState: 'Georgia',
      reAgentLicenseNumber: `GA-${unique()}`,
      reAgentLicenseValidityFlag: overrides.licenseValid ?? true,
      reAgentBrokerFirmName: 'Peachtree Realty',
      reAgentBrokerFirmLicense: overrides.brokerFirmLicense ?? 'FIRM-001',
      reAgentResidenceZipCode: '30004',
      reAgentRole: overrides.role ?? 'Real Estate Agent',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const { token } = await createSessionService(db).create(user.id)
  return { user, agent, token }
}
