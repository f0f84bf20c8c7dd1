import { randomBytes, randomUUID } from 'node:crypto'
import type { Db } from '@porchlight/server/src/db/database.ts'
import type { AgentRow } from '@porchlight/server/src/db/rows.ts'
import { createAgentRepo } from '@porchlight/server/src/modules/agents/repo.ts'
import { createSessionCache } from '@porchlight/server/src/modules/auth/session-cache.ts'
import { createSessionService } from '@porchlight/server/src/modules/auth/sessions.ts'
import { createAccess } from '@porchlight/server/src/policy/access.ts'
import { noLive } from '@porchlight/server/src/realtime/events.ts'
import type { TestApp } from './app.ts'

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
  /** A role held: granted by the operator once the agent is made (a verified member only). */
  role?: 'Real Estate Agent' | 'Team Lead' | 'Admin Team Member'
  brokerFirmLicense?: string
  licenseValid?: boolean
  /** Firm membership; verified unless a test is about an agent still waiting for it. */
  firmStatus?: 'pending' | 'verified' | 'declined'
}

/** A user with an agent profile and a signed-in session token. */
export async function makeAgent(db: Db, overrides: AgentOverrides = {}) {
  const user = await makeUser(db)
  const made = await db
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
      requestedRole: overrides.role ?? 'Real Estate Agent',
      firmMembershipStatus: overrides.firmStatus ?? 'verified',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const agent = await grantedRole(db, made, overrides.role)
  const { token } = await createSessionService(
    db,
    noLive.rooms,
    createSessionCache(0),
    createAccess(db),
  ).create(user.id)
  return { user, agent, token }
}

/** Roles are granted, never typed: a Team Lead or Admin Team Member gets its role from the operator. */
async function grantedRole(db: Db, agent: AgentRow, role: AgentOverrides['role']): Promise<AgentRow> {
  if (!role || role === 'Real Estate Agent') return agent
  if (agent.firmMembershipStatus !== 'verified') {
    throw new Error(`makeAgent: only a verified firm member can hold ${role}`)
  }
  const granted = await createAgentRepo(db).grantFirmRole(agent.id, agent.reAgentBrokerFirmLicense, role, {
    operator: true,
  })
  if (!granted.agent) throw new Error(`makeAgent: the operator could not grant ${role}`)
  return granted.agent
}

export const validAgentFields = (email: string, overrides: Record<string, unknown> = {}) => ({
  reAgentFirstName: 'Riley',
  reAgentLastName: 'Stone',
  reAgentEmailId: email,
  reAgentPhoneCountryCode: 'United States',
  reAgentPhoneNumber: '404 555 0199',
  reAgentLicensedState: 'Georgia',
  reAgentLicenseNumber: 'GA-778899',
  reAgentLicenseValidityFlag: 'true',
  reAgentBrokerFirmName: 'Peachtree Realty',
  reAgentBrokerFirmLicense: 'FIRM-001',
  reAgentResidenceZipCode: '30004',
  reAgentRole: 'Real Estate Agent',
  ...overrides,
})

/** A user who signed up and validated through the API (the code read from the database mail). */
export async function makeValidatedUser(
  t: Pick<TestApp, 'call' | 'db'>,
  email = `user-${unique()}@example.com`,
  password = 'porch-light-42',
) {
  const signup = await t.call('POST', '/signing/savePorchlightUser', {
    body: { porchlightUserEmailId: email, porchlightUserPass: password, porchlightUserPassVerify: password },
  })
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`)
  const userId: number = signup.body.data.id
  const mail = await t.db
    .selectFrom('mail')
    .select('textBody')
    .where('toAddress', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  const code = /\b(\d{6})\b/.exec(mail.textBody)?.[1]
  const validated = await t.call('GET', `/signing/validateEmailId/${userId}/${code}`)
  if (validated.status !== 200) throw new Error(`validation failed: ${JSON.stringify(validated.body)}`)
  return {
    userId,
    email,
    password,
    token: validated.body.data.porchlightUserDTO.porchlightUserToken as string,
  }
}

/** An agent (direct in the database) holding a plan, signed in. */
export async function makePlannedAgent(db: Db, overrides: AgentOverrides = {}, planTitle = 'Brokerage') {
  const made = await makeAgent(db, overrides)
  const plan = await db
    .selectFrom('pricingPlan')
    .select('id')
    .where('pricingPlanTitle', '=', planTitle)
    .executeTakeFirstOrThrow()
  await db
    .insertInto('pricingPlanPurchase')
    .values({
      pricingPlanId: plan.id,
      reAgentId: made.agent.id,
      pricingPlanFrequency: 'Monthly',
      pricingPlanStartDate: new Date(),
      pricingPlanEndDate: new Date(Date.now() + 30 * 86_400_000),
    })
    .execute()
  return made
}

export const propertyFields = (overrides: Record<string, unknown> = {}) => ({
  propertyAddress1: `${Math.floor(Math.random() * 9000) + 100} Lantern Way`,
  propertyCity: 'Alpharetta',
  propertyState: 'Georgia',
  propertyCounty: 'Fulton',
  propertyZipCode: '30004',
  propertyCountry: 'United States',
  propertyLatitude: 34.0754,
  propertyLongitude: -84.2941,
  propertyType: 'Single Family Home',
  ...overrides,
})

/** A guest's sign-in at the door (public saveProspect): a new person, a new request id. */
export const guestFields = (openHouseId: number, overrides: Record<string, unknown> = {}) => ({
  prospectFirstName: 'Gale',
  prospectLastName: 'Guest',
  prospectEmailId: `guest-${unique()}@example.com`,
  prospectPhoneNumber: '404 555 0188',
  openHouseId,
  clientRequestId: randomUUID(),
  ...overrides,
})

/** 'YYYY-MM-DD' n days from today (UTC). */
export function daysFromNow(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)
}

export const scheduleFields = (rePropertyId: number, overrides: Record<string, unknown> = {}) => ({
  rePropertyId,
  openHouseFor: 'Sale',
  scheduledDate: daysFromNow(3),
  scheduledStartTime: '1:00 PM',
  scheduledEndTime: '3:00 PM',
  openHouseTimezone: 'America/New_York',
  balloonsPutOutFlag: 'true',
  snackServedFlag: 'false',
  mealServedFlag: 'false',
  drinkServedFlag: 'true',
  openHouseInstructions: 'Lockbox on the side door.',
  publishLevel: 'Open To All',
  autoCloneOpenHouseFlag: 'false',
  ...overrides,
})

/** The agent accepts its invitation to the team, as it would from the invitation mail. */
export async function acceptTeam(t: Pick<TestApp, 'call'>, member: { token: string }, teamId: number) {
  const res = await t.call('POST', `/reteammgmt/acceptTeamInvitation/${teamId}`, { token: member.token })
  if (res.status !== 200) throw new Error(`accept: ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** A team led by `lead` whose `members` accepted to join (as they would from the invitation), in the database. */
export async function makeTeam(
  db: Db,
  lead: { agent: { id: number } },
  members: Array<{ agent: { id: number } }>,
  teamType: 'Real Estate Team' | 'Real Estate Group' | 'Partnered Team' = 'Real Estate Team',
) {
  const team = await db
    .insertInto('reTeam')
    .values({
      reTeamName: `Team ${unique()}`,
      teamType,
      reTeamLeadId: lead.agent.id,
      createdByReAgentId: lead.agent.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const m of members) {
    await db
      .insertInto('reTeamMember')
      .values({
        reTeamId: team.id,
        reAgentId: m.agent.id,
        addedByReAgentId: lead.agent.id,
        invitationStatus: 'accepted',
      })
      .execute()
  }
  return team.id
}
