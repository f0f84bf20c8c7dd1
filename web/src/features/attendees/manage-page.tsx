import { messages } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { useFreshAttendees, useWatchOpenHouse } from '../../live/bridge.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { NotFound } from '../../ui/not-found.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { useMediaQuery } from '../../ui/use-media-query.ts'
import { may, scheduleDateText, scheduledNote, scheduleTimeText } from '../open-houses/permissions.ts'
import { openHouseDetailsQueryOptions } from '../open-houses/queries.ts'
import { ProspectDetailsDialog } from '../prospects/prospect-details-dialog.tsx'
import { attendeesQueryOptions } from '../prospects/queries.ts'
import { SellerReportLinkButton } from '../seller-report/seller-link-dialog.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { AttendeeCards } from './attendee-cards.tsx'
import { AttendeeTable } from './attendee-table.tsx'
import { BoardActions } from './board-actions.tsx'
import { FeedbackSummarySection } from './feedback-summary.tsx'
import { KioskStartDialog } from './kiosk-start.tsx'
import { type ReportKind, useReportMutation } from './queries.ts'
import { ShowQrDialog } from './show-qr-dialog.tsx'
import './attendees.css'
import { clockTime } from '../../ui/format.ts'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/manage')

/** Below this width the board is a phone's: guests as cards, the actions behind one menu. */
const PHONE_BOARD = '(max-width: 767px)'

const REPORT_SENT: Record<ReportKind, string> = {
  hosting: messages.hostingReportSent,
  request: messages.hostingReportRequested,
  attendees: messages.attendeeReportSent,
}

/**
 * SPEC /openhouses/schedule/{id}/manage: the host's live attendee board. Every guest who signs in
 * appears at once, highlighted and read out (the live bridge, watching the open house's room); counts,
 * the feedback summary (live) and the reports.
 * The listing agent (and the teammate who scheduled for it) sees the same board without the host's
 * actions, and may request the hosting report. Who may do what is the server's `oh.permissions`.
 */
export function ManageAttendeesPage() {
  const { openHouseId } = routeApi.useParams()
  const { rePropertyId } = routeApi.useSearch()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent, user } = useSessionInfo()
  const attendees = useQuery(attendeesQueryOptions(openHouseId))
  const watching = useWatchOpenHouse(openHouseId)
  const narrow = useMediaQuery(PHONE_BOARD)
  const [showingQr, setShowingQr] = useState(false)
  const [startingKiosk, setStartingKiosk] = useState(false)
  const fresh = useFreshAttendees(openHouseId)
  const [viewing, setViewing] = useState<number | null>(null)
  const report = useReportMutation(openHouseId, oh.hostingREAgentId ?? 0)
  const [reportResult, setReportResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const manages = may(oh, 'manageAttendees')
  const title = manages ? 'Manage Attendees' : 'Attendees'
  useDocumentTitle(may(oh, 'viewAttendees') ? title : 'Page not found')

  const agentId = agent?.id ?? 0
  const list = attendees.data ?? []
  const withoutRealtor = list.filter((a) => a.workingWithREAgentFlag === false).length
  const note = scheduledNote(oh, agentId)
  const someoneElsesLeads = list.some((a) => !a.ownProspect)

  const send = (kind: ReportKind) => {
    setReportResult(null)
    report.mutate(kind, {
      onSuccess: () => setReportResult({ tone: 'success', text: REPORT_SENT[kind] }),
      onError: (error) =>
        setReportResult({
          tone: 'error',
          text: errorMessage(error, 'The report could not be sent. Please try again.'),
        }),
    })
  }
  const pending = (kind: ReportKind) => report.isPending && report.variables === kind

  // An agent who may not see the attendees: the open house is not theirs to look into.
  if (!may(oh, 'viewAttendees')) return <NotFound />

  return (
    <section className="page board" aria-labelledby="board-title">
      <header className="board__header">
        <div>
          <p className="eyebrow">Open house</p>
          <h1 id="board-title">{title}</h1>
          <p className="lede">
            {oh.reProperty.completePropertyAddress} · {scheduleDateText(oh)} · {scheduleTimeText(oh)}
          </p>
          <p className="board__who">
            Listing agent {oh.listingREAgentName}
            {note && ` (${note.charAt(0).toLowerCase()}${note.slice(1)})`} · Host{' '}
            {oh.hostingREAgentName ?? 'not claimed yet'}
          </p>
        </div>
        {!narrow && (
          <BoardActions
            oh={oh}
            rePropertyId={rePropertyId ?? oh.rePropertyId}
            narrow={false}
            send={send}
            pending={pending}
            onShowQr={() => setShowingQr(true)}
            onStartKiosk={() => setStartingKiosk(true)}
          />
        )}
      </header>
      {narrow && (
        <BoardActions
          oh={oh}
          rePropertyId={rePropertyId ?? oh.rePropertyId}
          narrow
          send={send}
          pending={pending}
          onShowQr={() => setShowingQr(true)}
          onStartKiosk={() => setStartingKiosk(true)}
        />
      )}

      <SellerReportLinkButton oh={oh} />
      {report.isPending && <Spinner label="Sending the report…" />}
      {reportResult && <Alert tone={reportResult.tone} title={reportResult.text} />}
      {oh.openHouseCanceledFlag && <Alert tone="info" title="This open house is canceled." />}
      {watching === 'no' && (
        <Alert
          tone="info"
          title="Live updates are not available for this open house. Use Refresh to see new guests."
        />
      )}

      <p className="board-counts">
        <span>
          <strong data-testid="attendee-count">{attendees.data ? list.length : '…'}</strong>{' '}
          {list.length === 1 ? 'guest' : 'guests'}
        </span>
        <span aria-hidden="true"> · </span>
        <span>
          <strong data-testid="without-realtor-count">{attendees.data ? withoutRealtor : '…'}</strong> without
          a realtor
        </span>
      </p>

      <section
        className="card board-section"
        aria-labelledby="attendees-title"
        aria-busy={attendees.isFetching}
      >
        <div className="board-section__header">
          <h2 id="attendees-title">Attendees</h2>
          <Button size="sm" onPress={() => void attendees.refetch()} isPending={attendees.isRefetching}>
            Refresh
          </Button>
        </div>
        {attendees.isError && attendees.data && !attendees.isFetching && (
          <Alert
            tone="error"
            title={`Couldn't refresh the attendees. Showing what we had at ${clockTime(attendees.dataUpdatedAt)}.`}
          >
            {errorMessage(attendees.error, 'Check the connection and try Refresh again.')}
          </Alert>
        )}
        {someoneElsesLeads && (
          <p className="board-section__note">
            Guests who sign in become the leads of the agent hosting at the door. You see a guest's full email
            and phone only when the guest is your own lead, or agreed to share their details with the listing
            agent; the others are masked.
          </p>
        )}
        {attendees.isPending ? (
          <Spinner label="Loading attendees…" />
        ) : attendees.isError && !attendees.data ? (
          <Alert
            tone="error"
            title={errorMessage(attendees.error, 'The attendees could not be loaded.')}
            actions={<Button onPress={() => void attendees.refetch()}>Try again</Button>}
          />
        ) : list.length === 0 ? (
          <div className="empty-state">
            <p>
              {manages
                ? 'No guests have signed in yet. Show them the QR code at the door; they appear here the moment they sign in.'
                : 'No guests have signed in yet. They appear here the moment they sign in.'}
            </p>
          </div>
        ) : narrow ? (
          <AttendeeCards attendees={list} oh={oh} fresh={fresh} onView={setViewing} />
        ) : (
          <AttendeeTable attendees={list} oh={oh} fresh={fresh} onView={setViewing} />
        )}
      </section>

      <FeedbackSummarySection openHouseId={openHouseId} />
      <ProspectDetailsDialog prospectId={viewing} onClose={() => setViewing(null)} />
      {may(oh, 'manageAttendees') && <ShowQrDialog oh={oh} isOpen={showingQr} onOpenChange={setShowingQr} />}
      {may(oh, 'manageAttendees') && (
        <KioskStartDialog
          isOpen={startingKiosk}
          onOpenChange={setStartingKiosk}
          openHouseId={oh.id}
          rePropertyId={rePropertyId ?? oh.rePropertyId}
          email={user.porchlightUserEmailId}
        />
      )}
    </section>
  )
}
