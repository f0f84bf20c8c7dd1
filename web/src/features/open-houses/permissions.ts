import { FLEXI_DATE, FLEXI_TIME, type OpenHouseDetails, type OpenHousePermission } from '@porchlight/shared'
import { guestSignInUrl } from '@porchlight/shared/rules/guest-url'
import { formatDate } from '../../ui/format.ts'
import type { OpenHouseList } from './queries.ts'

export type OpenHouseAction =
  | 'edit'
  | 'cancel'
  | 'publish'
  | 'clone'
  | 'anotherDay'
  | 'manage'
  | 'attendees'
  | 'withdraw'
  | 'requestReport'
  | 'sendReport'
  | 'calendar'
  | 'qrcode'
  | 'doorSign'
  | 'claim'

/** Whether the server's policy lets the signed-in agent do `permission` (OpenHouseDetails.permissions). */
export function may(oh: Pick<OpenHouseDetails, 'permissions'>, permission: OpenHousePermission): boolean {
  return oh.permissions.includes(permission)
}

/** Hosted by an agent other than its listing agent (SPEC §6 "when another hosts"). */
export function hostedByAnother(oh: Pick<OpenHouseDetails, 'hostingREAgentId' | 'listingREAgentId'>) {
  return oh.hostingREAgentId !== null && oh.hostingREAgentId !== oh.listingREAgentId
}

/** Guests can sign in (its public pages exist) only once it is published or has a host. */
export function onShow(oh: Pick<OpenHouseDetails, 'published' | 'hostingREAgentId'>): boolean {
  return oh.published || oh.hostingREAgentId !== null
}

/**
 * SPEC §6: what the signed-in agent may do with an open house in a given list. Who may is the server's
 * one policy, sent as `oh.permissions` (the listing agent and the teammate who scheduled it for them:
 * edit, cancel, publish, clone, request the report; the host: attendees, withdraw, reports; an agent it
 * is offered to: claim). What the open house's state still allows is decided here: nothing changes on a
 * canceled one, only a house without a host is published or claimed, past ones keep what still makes
 * sense afterwards, and the QR code and the door sign exist only while guests can reach its public pages.
 */
export function actionsFor(oh: OpenHouseDetails, list: OpenHouseList): OpenHouseAction[] {
  const live = !oh.openHouseCanceledFlag
  const hosted = oh.hostingREAgentId !== null
  const actions: OpenHouseAction[] = []
  if (list === 'available') {
    if (may(oh, 'claim') && live && !hosted) actions.push('claim')
    return actions
  }
  const upcoming = list === 'upcoming'
  if (upcoming && live) {
    if (may(oh, 'edit')) actions.push('edit')
    if (may(oh, 'publish') && !hosted && !oh.published) actions.push('publish')
    if (may(oh, 'cancel')) actions.push('cancel')
  }
  if (may(oh, 'clone')) actions.push('clone')
  // A weekend: the same open house, same times, on the property's next free day.
  if (upcoming && live && may(oh, 'clone')) actions.push('anotherDay')
  if (may(oh, 'manageAttendees')) {
    if (live) actions.push('manage')
  } else if (may(oh, 'viewAttendees') && onShow(oh)) {
    actions.push('attendees')
  }
  if (upcoming && live && may(oh, 'withdraw') && oh.publishLevel !== 'Hosting Myself')
    actions.push('withdraw')
  if (live && may(oh, 'requestHostingReport') && hostedByAnother(oh)) actions.push('requestReport')
  // Once it is over, the host sends its report from the card (before, from the attendee board).
  if (list === 'past' && live && may(oh, 'sendHostingReport')) actions.push('sendReport')
  if (upcoming && live && may(oh, 'viewAttendees')) {
    actions.push('calendar')
    if (onShow(oh)) actions.push('qrcode')
  }
  if (upcoming && live && may(oh, 'printDoorSign') && onShow(oh)) actions.push('doorSign')
  return actions
}

/**
 * The one action a card puts forward: the next thing this agent would do with the open house. An
 * offered one is claimed; the host runs its attendee board; the listing agent publishes or edits one
 * nobody hosts yet and follows the attendee board of one another agent hosts; once it is over, the
 * report. Null when nothing is left to do but look (the card then puts Details forward).
 */
export function primaryAction(
  oh: Pick<OpenHouseDetails, 'hostingREAgentId' | 'listingREAgentId'>,
  actions: OpenHouseAction[],
  list: OpenHouseList,
): OpenHouseAction | null {
  const order: OpenHouseAction[] =
    list === 'available'
      ? ['claim']
      : list === 'past'
        ? ['sendReport', 'requestReport', 'manage', 'attendees']
        : hostedByAnother(oh)
          ? ['manage', 'attendees', 'edit']
          : ['manage', 'publish', 'edit', 'attendees']
  return order.find((action) => actions.includes(action)) ?? null
}

/**
 * Who scheduled it for whom, when a Team Lead or Admin Team Member scheduled it for a teammate: the
 * scheduler reads whom it is for, the listing agent who scheduled it. Nobody else needs the note.
 */
export function scheduledNote(
  oh: Pick<
    OpenHouseDetails,
    'scheduledByREAgentId' | 'scheduledByREAgentName' | 'listingREAgentId' | 'listingREAgentName'
  >,
  agentId: number,
): string | null {
  if (oh.scheduledByREAgentId === oh.listingREAgentId) return null
  if (agentId === oh.scheduledByREAgentId) return `Scheduled for ${oh.listingREAgentName}`
  if (agentId === oh.listingREAgentId) return `Scheduled by ${oh.scheduledByREAgentName}`
  return null
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
  return guestSignInUrl(window.location.origin, oh)
}

/** 'Sat 12/5' for an ISO calendar date, as the agent reads a day of its week. */
export function shortDay(isoDate: string): string {
  const day = new Date(`${isoDate.slice(0, 10)}T12:00:00Z`)
  const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(day)
  return `${weekday} ${day.getUTCMonth() + 1}/${day.getUTCDate()}`
}

/** What a copy made with Clone is ("Copy of Sat 12/5 open house"); null for any other open house. */
export function copyLabel(oh: Pick<OpenHouseDetails, 'copyOf'>): string | null {
  if (!oh.copyOf) return null
  return oh.copyOf.scheduledDate
    ? `Copy of ${shortDay(oh.copyOf.scheduledDate)} open house`
    : 'Copy of a flexible-date open house'
}
