import { FLEXI_DATE, FLEXI_TIME, type OpenHouseDetails } from '@porchlight/shared'
import { formatDate } from '../../ui/format.ts'
import type { OpenHouseList } from './queries.ts'

export type OpenHouseAction =
  | 'edit'
  | 'cancel'
  | 'publish'
  | 'clone'
  | 'manage'
  | 'withdraw'
  | 'calendar'
  | 'qrcode'
  | 'claim'

/**
 * SPEC §6: what the signed-in agent may do with an open house in a given list. Listing agent: Edit,
 * Cancel, Publish (no host yet), Clone. Hosting agent (not canceled): Manage Attendees, Withdraw (not
 * 'Hosting Myself'), Add to calendar. Everyone else can only claim. Past open houses keep only what
 * still makes sense afterwards.
 */
export function actionsFor(oh: OpenHouseDetails, agentId: number, list: OpenHouseList): OpenHouseAction[] {
  const isListing = oh.listingREAgentId === agentId
  const isHost = oh.hostingREAgentId === agentId
  const live = !oh.openHouseCanceledFlag
  const actions: OpenHouseAction[] = []
  if (list === 'available') {
    if (!isListing && !isHost && live && oh.hostingREAgentId === null) actions.push('claim')
    return actions
  }
  const upcoming = list === 'upcoming'
  if (isListing && upcoming && live) {
    actions.push('edit')
    if (oh.hostingREAgentId === null && !oh.published) actions.push('publish')
    actions.push('cancel')
  }
  if (isListing) actions.push('clone')
  if (isHost && live) {
    actions.push('manage')
    if (upcoming && oh.publishLevel !== 'Hosting Myself') actions.push('withdraw')
  }
  if ((isHost || isListing) && live && upcoming) actions.push('calendar', 'qrcode')
  return actions
}

/** 'MM/dd/yyyy', or SPEC's flexible-date label when the host picks the date. */
export function scheduleDateText(oh: Pick<OpenHouseDetails, 'scheduledDate'>): string {
  return oh.scheduledDate ? formatDate(oh.scheduledDate) : FLEXI_DATE
}

export function scheduleTimeText(
  oh: Pick<OpenHouseDetails, 'scheduledStartTime' | 'scheduledEndTime'>,
): string {
  if (oh.scheduledStartTime === FLEXI_TIME && oh.scheduledEndTime === FLEXI_TIME) return FLEXI_TIME
  return `${oh.scheduledStartTime} – ${oh.scheduledEndTime}`
}

/** The public guest page a visitor opens by scanning the open house's QR code (SPEC §2). */
export function guestUrl(
  oh: Pick<OpenHouseDetails, 'id' | 'rePropertyId' | 'hostingREAgentId' | 'listingREAgentId'>,
) {
  const query = new URLSearchParams({
    openHouseId: String(oh.id),
    rePropertyId: String(oh.rePropertyId),
    // Guests become the leads of the agent at the door: the host, or the listing agent until one claims.
    reAgentId: String(oh.hostingREAgentId ?? oh.listingREAgentId),
    from: 'qrcode',
  })
  return `${window.location.origin}/public/OpenHouseToday?${query}`
}
