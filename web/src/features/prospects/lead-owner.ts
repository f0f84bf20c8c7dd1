import type { OpenHouseDetails, Prospect } from '@porchlight/shared'

/**
 * Whether the server masked the prospect's contact details for this agent (shared maskEmail and
 * maskPhone: asterisks in place of characters). An agent's own lead is never masked.
 */
export function contactMasked(p: Pick<Prospect, 'ownProspect' | 'prospectEmailId' | 'prospectPhoneNumber'>) {
  return !p.ownProspect && (p.prospectEmailId.includes('*') || p.prospectPhoneNumber.includes('*'))
}

/** Whose lead a guest of the open house is: the agent's own, or the listing or hosting agent's. */
export function leadOwnerText(
  p: Pick<Prospect, 'ownProspect' | 'createdByREAgentId'>,
  oh: Pick<
    OpenHouseDetails,
    'listingREAgentId' | 'listingREAgentName' | 'hostingREAgentId' | 'hostingREAgentName'
  >,
): string {
  if (p.ownProspect) return 'Your lead'
  if (p.createdByREAgentId === oh.hostingREAgentId && oh.hostingREAgentName) {
    return `${oh.hostingREAgentName}'s lead`
  }
  if (p.createdByREAgentId === oh.listingREAgentId) return `${oh.listingREAgentName}'s lead`
  return "Another agent's lead"
}
