import { type CalendarDate, parseDate } from '@internationalized/date'
import type { Agent } from '@porchlight/shared'
import type { FieldErrors } from '../../ui/use-form.ts'

export const ADMIN_TEAM_MEMBER = 'Admin Team Member'

/** What the agent form holds while it is edited: text as typed, the date as a calendar date. */
export type AgentFormValues = {
  reAgentFirstName: string
  reAgentMiddleName: string
  reAgentLastName: string
  reAgentFirmName: string
  reAgentEmailId: string
  reAgentPhoneCountryCode: string
  reAgentPhoneNumber: string
  reAgentRole: string
  reAgentBrokerFirmName: string
  reAgentBrokerFirmLicense: string
  reAgentLicensedState: string
  reAgentLicenseNumber: string
  reAgentDateOfBirth: CalendarDate | null
  reAgentResidenceZipCode: string
}

/** Shared schemas word an empty select or phone as a bad value; these say what is missing. */
export const AGENT_REQUIRED_MESSAGES: FieldErrors<AgentFormValues> = {
  reAgentPhoneCountryCode: 'Phone country is required',
  reAgentPhoneNumber: 'Phone number is required',
  reAgentRole: 'Role is required',
}

export function emptyAgentValues(email: string): AgentFormValues {
  return {
    reAgentFirstName: '',
    reAgentMiddleName: '',
    reAgentLastName: '',
    reAgentFirmName: '',
    reAgentEmailId: email,
    reAgentPhoneCountryCode: 'United States',
    reAgentPhoneNumber: '',
    reAgentRole: '',
    reAgentBrokerFirmName: '',
    reAgentBrokerFirmLicense: '',
    reAgentLicensedState: '',
    reAgentLicenseNumber: '',
    reAgentDateOfBirth: null,
    reAgentResidenceZipCode: '',
  }
}

export function agentValues(agent: Agent): AgentFormValues {
  return {
    reAgentFirstName: agent.reAgentFirstName,
    reAgentMiddleName: agent.reAgentMiddleName ?? '',
    reAgentLastName: agent.reAgentLastName,
    reAgentFirmName: agent.reAgentFirmName ?? '',
    reAgentEmailId: agent.reAgentEmailId,
    reAgentPhoneCountryCode: agent.reAgentPhoneCountryCode,
    reAgentPhoneNumber: agent.reAgentPhoneNumber,
    reAgentRole: agent.reAgentRole,
    reAgentBrokerFirmName: agent.reAgentBrokerFirmName,
    reAgentBrokerFirmLicense: agent.reAgentBrokerFirmLicense,
    reAgentLicensedState: agent.reAgentLicensedState ?? '',
    reAgentLicenseNumber: agent.reAgentLicenseNumber ?? '',
    reAgentDateOfBirth: agent.reAgentDateOfBirth ? parseDate(agent.reAgentDateOfBirth.slice(0, 10)) : null,
    reAgentResidenceZipCode: agent.reAgentResidenceZipCode ?? '',
  }
}

/**
 * SPEC §5's exemption from license and zip: at sign-up, the role asked for; on edit, an agent that holds
 * Admin Team Member or asked for it (it holds Real Estate Agent until a Team Lead grants it).
 */
export function licenseExempt(values: AgentFormValues, agent?: Agent): boolean {
  if (!agent) return values.reAgentRole === ADMIN_TEAM_MEMBER
  return agent.reAgentRole === ADMIN_TEAM_MEMBER || agent.requestedRole === ADMIN_TEAM_MEMBER
}

/**
 * SPEC §5: licensed state, license number and residence zip are required unless the role is Admin
 * Team Member (licenseExempt). The shared schema says so too, but only once every other field parses;
 * this lets the form show all missing fields at the first submit.
 */
export function licenseErrors(
  values: AgentFormValues,
  mode: 'create' | 'edit',
  exempt = licenseExempt(values),
): FieldErrors<AgentFormValues> {
  if (exempt) return {}
  const errors: FieldErrors<AgentFormValues> = {}
  if (mode === 'create' && !values.reAgentLicensedState)
    errors.reAgentLicensedState = 'Licensed state is required'
  if (mode === 'create' && !values.reAgentLicenseNumber.trim()) {
    errors.reAgentLicenseNumber = 'License number is required'
  }
  if (!values.reAgentResidenceZipCode.trim())
    errors.reAgentResidenceZipCode = 'Residence zip code is required'
  return errors
}

/**
 * The body the shared schemas parse: unpicked selects as missing, the date as YYYY-MM-DD (SPEC §3
 * ISO date), and the license validity flag SPEC says is always sent true.
 */
export function agentInput(values: AgentFormValues) {
  return {
    ...values,
    reAgentPhoneCountryCode: values.reAgentPhoneCountryCode || undefined,
    reAgentRole: values.reAgentRole || undefined,
    reAgentLicensedState: values.reAgentLicensedState || null,
    reAgentDateOfBirth: values.reAgentDateOfBirth?.toString() ?? null,
    reAgentLicenseValidityFlag: true,
  }
}
