/** SPEC §5 and §9: the prospect search runs from 3 characters on. */
export const PROSPECT_SEARCH_MIN_LENGTH = 3

/** The term a prospect search uses, or null when it is too short to run (the full list shows). */
export function prospectSearchTerm(query: string | null | undefined): string | null {
  const term = (query ?? '').trim()
  return term.length >= PROSPECT_SEARCH_MIN_LENGTH ? term : null
}

/** SPEC §5: a search matches the first or the last name, case-insensitively. */
export function matchesProspectSearch(
  prospect: { prospectFirstName: string; prospectLastName: string },
  query: string | null | undefined,
): boolean {
  const term = prospectSearchTerm(query)?.toLowerCase()
  if (!term) return true
  return (
    prospect.prospectFirstName.toLowerCase().includes(term) ||
    prospect.prospectLastName.toLowerCase().includes(term)
  )
}

const DAY_MS = 86_400_000

/**
 * SPEC §4 'Last Updated': 'Today' if 0 days have passed, otherwise 'N Days back', where N is the whole
 * days elapsed rounded up, minus one.
 */
export function lastUpdatedText(updatedDate: Date | string, now: Date = new Date()): string {
  const elapsed = now.getTime() - new Date(updatedDate).getTime()
  const days = Math.ceil(elapsed / DAY_MS) - 1
  return days <= 0 ? 'Today' : `${days} Days back`
}

/**
 * SPEC §5 email masking: keeps the first and last character of the local part and the first 3
 * characters of the domain label, and hides the rest of each with asterisks
 * ('jonathan@example.com' → 'j******n@exa****.com').
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 0) return email
  const local = email.slice(0, at)
  const domain = email.slice(at + 1)
  const maskedLocal =
    local.length <= 2 ? local : `${local[0]}${'*'.repeat(local.length - 2)}${local[local.length - 1]}`
  const dot = domain.indexOf('.')
  const label = dot < 0 ? domain : domain.slice(0, dot)
  const rest = dot < 0 ? '' : domain.slice(dot)
  const maskedLabel = label.length <= 3 ? label : `${label.slice(0, 3)}${'*'.repeat(label.length - 3)}`
  return `${maskedLocal}@${maskedLabel}${rest}`
}

/** The first name and last initial: all a public page or a guest's socket may learn of a visitor. */
export function publicVisitorName(
  firstName: string,
  lastName: string,
): { firstName: string; lastInitial: string } {
  return { firstName: firstName.trim(), lastInitial: lastName.trim().charAt(0).toUpperCase() }
}

/** For an agent who may see a prospect but does not own it: only the last 4 digits stay readable. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '').length
  let seen = 0
  return phone.replace(/\d/g, (d) => (++seen > digits - 4 ? d : '*'))
}

/**
 * The export's columns, named as Follow Up Boss and kvCORE map them on import (issue 13), in this order.
 */
export const PROSPECT_CSV_HEADERS = [
  'First Name',
  'Last Name',
  'Email',
  'Phone',
  'Address',
  'City',
  'State',
  'Zip',
  'Source',
  'Tags',
  'Notes',
  'Email Consent',
] as const
export type ProspectCsvRow = Record<(typeof PROSPECT_CSV_HEADERS)[number], string>

/**
 * Where a lead stands on mail, for an export that must not send to an opted-out guest: an opt-out
 * (one click, the unsubscribe page, the agent) stands over any earlier yes; a guest who saw the box and
 * left it empty declined; a lead the agent typed in was never asked.
 */
export type EmailConsentState = 'out' | 'in' | 'declined' | 'none'
export const EMAIL_CONSENT_LABELS: Record<EmailConsentState, string> = {
  out: 'Opted out',
  in: 'Opted in',
  declined: 'Declined',
  none: 'Not asked',
}

/** The export's dated file name, e.g. 'porchlight-prospects-2026-11-24.csv' (date 'YYYY-MM-DD'). */
export function prospectsCsvFileName(date: string): string {
  return `porchlight-prospects-${date}.csv`
}

/** A CRM's lead source: the product, and the property when the lead came from an open house there. */
export function prospectSource(propertyAddress: string | null | undefined): string {
  return propertyAddress ? `Porchlight Open House - ${propertyAddress}` : 'Porchlight'
}

/** A CRM's tags for a lead: its stage, its buying timeline and whether it has no realtor. */
export function prospectTags(p: {
  prospectStage: string
  homeBuyingTimelines: string | null
  workingWithREAgentFlag: boolean | null
}): string {
  return [
    p.prospectStage,
    p.homeBuyingTimelines && `Timeline ${p.homeBuyingTimelines}`,
    p.workingWithREAgentFlag === false && 'No Realtor', // not said is no tag (decision 038)
  ]
    .filter(Boolean)
    .join(', ')
}
