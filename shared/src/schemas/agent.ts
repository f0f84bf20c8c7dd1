import { z } from 'zod'
import { PHONE_NUMBER_NOT_VALID, PHONE_NUMBER_REQUIRED, PHONE_PATTERN } from '../constants/fields.ts'
import { AgentRole, LicensedState, PhoneCountry } from '../enums.ts'
import { FIRM_MEMBERSHIP_STATUSES } from '../rules/policy.ts'
import { Email, Flag, Id, IsoDate, OptionalText, RequiredText, whenValid } from './common.ts'

export const MINIMUM_AGENT_AGE = 18

/** The latest date of birth allowed today: 18 years before `today` (SPEC §5). */
export function latestDateOfBirth(today = new Date()): string {
  const d = new Date(
    Date.UTC(today.getUTCFullYear() - MINIMUM_AGENT_AGE, today.getUTCMonth(), today.getUTCDate()),
  )
  return d.toISOString().slice(0, 10)
}

export const ZipCode = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{5}$/.test(v) && Number(v) >= 10000 && Number(v) <= 99999, {
    error: 'Zip code must be a number from 10000 to 99999',
  })

export const PhoneNumber = z
  .string({ error: PHONE_NUMBER_REQUIRED })
  .trim()
  .regex(PHONE_PATTERN, { error: PHONE_NUMBER_NOT_VALID })

const agentShape = {
  reAgentFirmName: OptionalText(120),
  reAgentFirstName: RequiredText('First name', 80),
  reAgentMiddleName: OptionalText(80),
  reAgentLastName: RequiredText('Last name', 80),
  reAgentEmailId: Email,
  reAgentPhoneCountryCode: PhoneCountry,
  reAgentPhoneNumber: PhoneNumber,
  reAgentLicensedState: LicensedState.nullish().transform((v) => v ?? null),
  reAgentLicenseNumber: OptionalText(40),
  reAgentLicenseValidityFlag: Flag.optional(),
  reAgentBrokerFirmName: RequiredText('Broker firm name', 120),
  reAgentBrokerFirmLicense: RequiredText('Broker firm license', 40),
  reAgentDateOfBirth: IsoDate.nullish()
    .or(z.literal(''))
    .transform((v) => v || null)
    .refine((v) => v === null || v <= latestDateOfBirth(), {
      error: `Agents must be at least ${MINIMUM_AGENT_AGE} years old`,
    }),
  reAgentResidenceZipCode: ZipCode.nullish()
    .or(z.literal(''))
    .transform((v) => v || null),
  reAgentRole: AgentRole,
  reAgentTeamId: Id.nullish(),
  reAgentPartneredTeamId: Id.nullish(),
}

type AgentLike = {
  reAgentRole: string
  reAgentLicensedState: string | null
  reAgentLicenseNumber: string | null
  reAgentResidenceZipCode: string | null
}

/** Licensed state, license number and zip are required unless the role is Admin Team Member. */
function requireLicenseUnlessAdmin(agent: AgentLike, ctx: z.RefinementCtx) {
  if (agent.reAgentRole === 'Admin Team Member') return
  const required: Array<[keyof AgentLike, string]> = [
    ['reAgentLicensedState', 'Licensed state is required'],
    ['reAgentLicenseNumber', 'License number is required'],
    ['reAgentResidenceZipCode', 'Residence zip code is required'],
  ]
  for (const [field, message] of required) {
    if (!agent[field]) ctx.addIssue({ code: 'custom', path: [field], message })
  }
}

export const AgentFields = z.object(agentShape)

/**
 * Sign-up: `reAgentRole` is the role the agent asks for (stored as `requestedRole`); it holds Real Estate
 * Agent until a verified Team Lead of its firm or the operator grants it one. SPEC §5's license and zip
 * exemption follows the role asked for: an Admin Team Member's assistant signs up without a license.
 */
export const CreateAgentBody = z
  .object({ ...agentShape, porchlightUserId: Id })
  .superRefine(
    requireLicenseUnlessAdmin,
    whenValid('reAgentRole', 'reAgentLicensedState', 'reAgentLicenseNumber', 'reAgentResidenceZipCode'),
  )
export type CreateAgentBody = z.input<typeof CreateAgentBody>

/**
 * On edit the licensed state, license number, broker firm details and email are read-only (ignored), and
 * so is the role: a role is granted (`grantFirmRole`), never typed.
 */
export const AGENT_READ_ONLY_ON_EDIT = [
  'reAgentLicensedState',
  'reAgentLicenseNumber',
  'reAgentBrokerFirmName',
  'reAgentBrokerFirmLicense',
  'reAgentEmailId',
] as const

export const UpdateAgentBody = z
  .object({
    ...agentShape,
    reAgentLicensedState: agentShape.reAgentLicensedState.optional(),
    reAgentLicenseNumber: agentShape.reAgentLicenseNumber.optional(),
    reAgentBrokerFirmName: z.string().optional(),
    reAgentBrokerFirmLicense: z.string().optional(),
    reAgentEmailId: z.string().optional(),
    reAgentRole: z.string().optional(),
    requestedRole: z.string().nullish(),
    id: Id.optional(),
  })
  .transform((b) => {
    const {
      reAgentRole,
      requestedRole,
      reAgentLicensedState,
      reAgentLicenseNumber,
      reAgentBrokerFirmName,
      reAgentBrokerFirmLicense,
      reAgentEmailId,
      id,
      ...editable
    } = b
    return editable
  })
export type UpdateAgentBody = z.input<typeof UpdateAgentBody>

export const Agent = z.object({
  id: z.number().int(),
  porchlightUserId: z.number().int(),
  reAgentFirmName: z.string().nullable(),
  reAgentFirstName: z.string(),
  reAgentMiddleName: z.string().nullable(),
  reAgentLastName: z.string(),
  reAgentEmailId: z.string(),
  reAgentPhoneCountryCode: z.string(),
  reAgentPhoneNumber: z.string(),
  reAgentLicensedState: z.string().nullable(),
  reAgentLicenseNumber: z.string().nullable(),
  reAgentLicenseValidityFlag: z.boolean(),
  reAgentBrokerFirmName: z.string(),
  reAgentBrokerFirmLicense: z.string(),
  reAgentDateOfBirth: z.string().nullable(),
  reAgentResidenceZipCode: z.string().nullable(),
  /** the role held: granted by a verified Team Lead of the firm or the operator */
  reAgentRole: z.string(),
  /** the role asked for at sign-up; it grants nothing */
  requestedRole: z.string().nullable(),
  reAgentTeamId: z.number().int().nullable(),
  reAgentPartneredTeamId: z.number().int().nullable(),
  /** pending until a verified Team Lead or Admin Team Member of the firm (or an operator) verifies it */
  firmMembershipStatus: z.enum(FIRM_MEMBERSHIP_STATUSES),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type Agent = z.infer<typeof Agent>

/** An agent not verified who asked the operator to verify its firm membership (the operator's page). */
export const FirmVerificationRequest = z.object({
  reAgentId: z.number().int(),
  reAgentFullName: z.string(),
  reAgentEmailId: z.string(),
  reAgentBrokerFirmName: z.string(),
  reAgentBrokerFirmLicense: z.string(),
  firmMembershipStatus: z.enum(FIRM_MEMBERSHIP_STATUSES),
  requestedAt: z.string(),
})
export type FirmVerificationRequest = z.infer<typeof FirmVerificationRequest>

/**
 * Another agent as the caller may see it: names for verified colleagues of the firm, contact data only
 * for accepted teammates; never license numbers or birth dates.
 */
export const FirmMember = z.object({
  id: z.number().int(),
  reAgentFirstName: z.string(),
  reAgentMiddleName: z.string().nullable(),
  reAgentLastName: z.string(),
  /** the role held */
  reAgentRole: z.string(),
  /** the role asked for at sign-up */
  requestedRole: z.string().nullable(),
  /** When its role held was last granted or revoked, and by whom (a name, or 'The Porchlight team'). */
  roleGrantedAt: z.string().nullable(),
  roleGrantedBy: z.string().nullable(),
  reAgentBrokerFirmName: z.string(),
  reAgentBrokerFirmLicense: z.string(),
  reAgentLicenseValidityFlag: z.boolean(),
  firmMembershipStatus: z.enum(FIRM_MEMBERSHIP_STATUSES),
  reAgentEmailId: z.string().nullable(),
  reAgentPhoneNumber: z.string().nullable(),
  /** An accepted teammate of the caller. */
  teammate: z.boolean(),
  /** The caller may schedule open houses for this agent (Team Lead / Admin Team Member of its team). */
  mayScheduleFor: z.boolean(),
})
export type FirmMember = z.infer<typeof FirmMember>

/** A role granted (or, as Real Estate Agent, revoked) by a verified Team Lead of the firm or the operator. */
export const GrantFirmRoleBody = z.object({ reAgentRole: AgentRole })
export type GrantFirmRoleBody = z.input<typeof GrantFirmRoleBody>

/**
 * Approve or decline: the membership status the caller decides on, as it saw it (default 'pending': a
 * request to join). A decision made meanwhile by someone else is a 409, never overwritten: approving a
 * declined agent or declining a verified member is said so explicitly.
 */
export const FirmDecisionBody = z
  .object({ currentStatus: z.enum(FIRM_MEMBERSHIP_STATUSES).optional() })
  .nullish()
export type FirmDecisionBody = z.input<typeof FirmDecisionBody>
