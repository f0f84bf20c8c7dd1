import type { OpenHouseDetails } from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { MenuButton, MenuItem } from '../../ui/Menu.tsx'
import { hostedByAnother, may } from '../open-houses/permissions.ts'
import type { ReportKind } from './queries.ts'

interface BoardActionsProps {
  oh: OpenHouseDetails
  /** Where Add Attendee searches from. */
  rePropertyId: number
  /** The phone layout: Show QR large, the rest behind one menu. */
  narrow: boolean
  send: (kind: ReportKind) => void
  pending: (kind: ReportKind) => boolean
  onShowQr: () => void
  onStartKiosk: () => void
}

/**
 * What the agent may do from the board (the server's `oh.permissions`). On a wide screen, a row of
 * buttons; on a phone, a large Show QR for the guest at the door and the rest in an Actions menu.
 */
export function BoardActions({
  oh,
  rePropertyId,
  narrow,
  send,
  pending,
  onShowQr,
  onStartKiosk,
}: BoardActionsProps) {
  const isActive = !oh.openHouseCanceledFlag
  const manages = isActive && may(oh, 'manageAttendees')
  const sendsReports = isActive && may(oh, 'sendHostingReport')
  const requestsReport = isActive && may(oh, 'requestHostingReport') && hostedByAnother(oh)
  const addAttendee = { openHouseId: oh.id, rePropertyId }
  // The sign for the door, once the open house has a date (its QR code opens the guest page).
  const doorSign = isActive && may(oh, 'printDoorSign') && oh.scheduledDate !== null

  if (narrow) {
    const reporting = pending('hosting') || pending('attendees') || pending('request')
    return (
      <div className="board__phone-actions">
        {manages && (
          <Button variant="primary" className="board__show-qr" onPress={onShowQr}>
            Show QR
          </Button>
        )}
        <MenuButton label="Actions" aria-label="Board actions" className="board__menu">
          {manages && (
            <MenuItem
              href={`/prospects/search?${new URLSearchParams({
                openHouseId: String(addAttendee.openHouseId),
                rePropertyId: String(addAttendee.rePropertyId),
              })}`}
            >
              Add Attendee
            </MenuItem>
          )}
          {manages && <MenuItem onAction={onStartKiosk}>Kiosk mode</MenuItem>}
          {doorSign && <MenuItem href={`/openhouses/schedule/${oh.id}/sign`}>Door sign</MenuItem>}
          {sendsReports && (
            <>
              <MenuItem onAction={() => send('hosting')} isDisabled={reporting}>
                Send OH Report
              </MenuItem>
              <MenuItem onAction={() => send('attendees')} isDisabled={reporting}>
                Send Attendee Report
              </MenuItem>
            </>
          )}
          {requestsReport && (
            <MenuItem onAction={() => send('request')} isDisabled={reporting}>
              Request OH Report
            </MenuItem>
          )}
          <MenuItem href="/openhouses?activeSection=upcomingOH">Back To Open Houses</MenuItem>
        </MenuButton>
      </div>
    )
  }

  return (
    <div className="board__actions">
      {manages && (
        <>
          <Link to="/prospects/search" search={addAttendee} variant="button-primary">
            Add Attendee
          </Link>
          <Button onPress={onShowQr}>Show QR</Button>
          <Button onPress={onStartKiosk}>Kiosk mode</Button>
        </>
      )}
      {doorSign && (
        <Link
          to="/openhouses/schedule/$openHouseId/sign"
          params={{ openHouseId: oh.id }}
          variant="button-secondary"
        >
          Door sign
        </Link>
      )}
      {sendsReports && (
        <>
          <Button onPress={() => send('hosting')} isPending={pending('hosting')}>
            Send OH Report
          </Button>
          <Button onPress={() => send('attendees')} isPending={pending('attendees')}>
            Send Attendee Report
          </Button>
        </>
      )}
      {requestsReport && (
        <Button onPress={() => send('request')} isPending={pending('request')}>
          Request OH Report
        </Button>
      )}
      <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }} variant="button-secondary">
        Back To Open Houses
      </Link>
    </div>
  )
}
