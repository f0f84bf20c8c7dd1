import { messages, needsScheduleOnClaim, type OpenHouseDetails } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { DataTable } from '../../ui/DataTable.tsx'
import { ListToolbar, type ListView } from '../../ui/list-toolbar.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { NARROW_SCREEN, useMediaQuery } from '../../ui/use-media-query.ts'
import { type MapPoint, PropertyMapCard } from '../maps/property-map-card.tsx'
import { confirmationOf } from './confirmation.ts'
import type { ListAction } from './open-house-actions.tsx'
import { OpenHouseCard } from './open-house-card.tsx'
import { OpenHouseDetailsDialog } from './open-house-details-dialog.tsx'
import { openHouseColumns } from './open-house-table.tsx'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import { QrCodeDialog } from './qr-code-dialog.tsx'
import {
  downloadCalendar,
  type OpenHouseList,
  openHouseDetailsQueryOptions,
  openHouseListQueryOptions,
  useAnotherDayMutation,
  useClaimMutation,
  useCloneMutation,
  useRequestReportMutation,
  useSendReportMutation,
  useWithdrawMutation,
} from './queries.ts'
import { useFocusAfterRemoval } from './use-focus-after-removal.ts'

interface OpenHouseListViewProps {
  list: OpenHouseList
  agentId: number
  /** Names the list (table caption, map). */
  label: string
  view: ListView
  onViewChange: (view: ListView) => void
  /** What an empty list says to do next. */
  empty: ReactNode
  /** Opens the claim of this open house on arrival (a team invitation's link). */
  focusId?: number
  /** The list shows word of an action: the screen's older message goes (one message at a time). */
  onMessage?: () => void
}

type Dialog = { kind: 'details' | 'qrcode' | 'claim' | 'withdraw'; oh: OpenHouseDetails }
type Result = { tone: 'success' | 'error'; text: string }

/**
 * One list of /openhouses: cards with a map (grid) or a paged table (list), Refresh, and every action
 * SPEC §6 gives the agent, with their confirmations and SPEC §8 alerts.
 */
export function OpenHouseListView({
  list,
  agentId,
  label,
  view,
  onViewChange,
  empty,
  focusId,
  onMessage,
}: OpenHouseListViewProps) {
  const query = useSuspenseQuery(openHouseListQueryOptions(list, agentId))
  const items = query.data
  const narrow = useMediaQuery(NARROW_SCREEN)
  const shownView: ListView = narrow ? 'grid' : view
  const navigate = useNavigate()
  const invited = focusId === undefined ? undefined : items.find((oh) => oh.id === focusId)
  const [dialog, setDialog] = useState<Dialog | null>(() => (invited ? { kind: 'claim', oh: invited } : null))
  const [result, setShownResult] = useState<Result | null>(null)
  // The same function on every render, so effects that show a result depend on it safely.
  const onMessageRef = useRef(onMessage)
  onMessageRef.current = onMessage
  const setResult = useCallback((next: Result | null) => {
    setShownResult(next)
    if (next) onMessageRef.current?.()
  }, [])
  const [pending, setPending] = useState<{ id: number; action: ListAction } | null>(null)
  const claim = useClaimMutation(agentId)
  const withdraw = useWithdrawMutation(agentId)
  const clone = useCloneMutation(agentId)
  const anotherDay = useAnotherDayMutation(agentId)
  const requestReport = useRequestReportMutation()
  const sendReport = useSendReportMutation()
  const listRef = useRef<HTMLDivElement>(null)
  const refocus = useFocusAfterRemoval(
    listRef,
    items.map((oh) => oh.id),
  )
  // Focus falls to <body> as a dialog closes over a card that left meanwhile: put it back.
  useEffect(() => {
    if (dialog === null) refocus()
  }, [dialog, refocus])

  // Another agent won while this one's Claim dialog was open: the dialog closes and says so.
  const claimingId = dialog?.kind === 'claim' && !claim.isPending ? dialog.oh.id : null
  const claimedMeanwhile =
    claimingId !== null &&
    list === 'available' &&
    (items.find((oh) => oh.id === claimingId)?.hostingREAgentId ?? agentId) !== agentId
  useEffect(() => {
    if (!claimedMeanwhile) return
    setDialog(null)
    setResult({ tone: 'error', text: messages.claimFailed })
  }, [claimedMeanwhile, setResult])

  const fail = (error: unknown, fallback: string) =>
    setResult({ tone: 'error', text: errorMessage(error, fallback) })

  const onAction = (action: ListAction, oh: OpenHouseDetails) => {
    setResult(null)
    if (action === 'details' || action === 'qrcode' || action === 'claim' || action === 'withdraw') {
      setDialog({ kind: action, oh })
      return
    }
    setPending({ id: oh.id, action })
    const done = () => setPending(null)
    if (action === 'clone') {
      clone.mutate(oh.id, {
        onSuccess: (copy) =>
          void navigate({ to: '/openhouses/schedule/$openHouseId/edit', params: { openHouseId: copy.id } }),
        onError: (error) => fail(error, messages.claimFailed),
        onSettled: done,
      })
    } else if (action === 'anotherDay') {
      anotherDay.mutate(oh.id, {
        onSuccess: (added) => void navigate(confirmationOf(added, 'new')),
        onError: (error) => fail(error, messages.openHouseAlreadyScheduled),
        onSettled: done,
      })
    } else if (action === 'requestReport') {
      requestReport.mutate(oh.id, {
        onSuccess: () => setResult({ tone: 'success', text: messages.hostingReportRequested }),
        onError: (error) => fail(error, "Couldn't request the Open House Hosting Report. Please try again."),
        onSettled: done,
      })
    } else if (action === 'sendReport') {
      sendReport.mutate(oh.id, {
        onSuccess: () => setResult({ tone: 'success', text: messages.hostingReportSent }),
        onError: (error) => fail(error, "Couldn't send the Open House Hosting Report. Please try again."),
        onSettled: done,
      })
    } else if (action === 'calendar') {
      downloadCalendar(oh.id)
        .catch((error: unknown) => fail(error, "Couldn't download the calendar file. Please try again."))
        .finally(done)
    }
  }

  const confirmClaim = (oh: OpenHouseDetails) => {
    // SPEC §4: a flexible date or time is fixed first on updateSchedule, which also claims.
    if (needsScheduleOnClaim(oh)) {
      void navigate({
        to: '/openhouses/schedule/$openHouseId/updateSchedule',
        params: { openHouseId: oh.id },
      })
      return
    }
    claim.mutate(oh.id, {
      onSuccess: () => setResult({ tone: 'success', text: messages.openHouseClaimed }),
      onError: (error) => fail(error, messages.claimFailed),
      onSettled: () => setDialog(null),
    })
  }

  const confirmWithdraw = (oh: OpenHouseDetails) => {
    withdraw.mutate(oh.id, {
      onSuccess: () => setResult({ tone: 'success', text: messages.openHouseWithdrawn }),
      onError: (error) => fail(error, "Couldn't withdraw from the Open House. Please try again."),
      onSettled: () => setDialog(null),
    })
  }

  const pendingFor = (oh: OpenHouseDetails) => (pending?.id === oh.id ? pending.action : null)
  const points: MapPoint[] = items.flatMap((oh) =>
    oh.reProperty.propertyLatitude !== null && oh.reProperty.propertyLongitude !== null
      ? [
          {
            id: oh.id,
            latitude: oh.reProperty.propertyLatitude,
            longitude: oh.reProperty.propertyLongitude,
            title: oh.reProperty.propertyAddress1,
            detail: `${scheduleDateText(oh)} · ${scheduleTimeText(oh)} · ${oh.status}`,
          },
        ]
      : [],
  )

  return (
    <div className="oh-list" ref={listRef}>
      {focusId !== undefined && !invited && <LateInvitation openHouseId={focusId} />}
      <ListToolbar
        count={items.length}
        noun={['open house', 'open houses']}
        view={view}
        onViewChange={onViewChange}
        showViewToggle={!narrow}
        onRefresh={() => query.refetch()}
      />
      {result && <Alert tone={result.tone} title={result.text} />}
      {query.isRefetchError && (
        <Alert tone="error" title="This list couldn't be refreshed.">
          {errorMessage(query.error, 'Please try Refresh again in a moment.')}
        </Alert>
      )}
      {shownView === 'list' ? (
        <DataTable
          caption={label}
          columns={openHouseColumns(list, agentId, onAction, pendingFor)}
          rows={items}
          emptyHint={empty}
        />
      ) : items.length === 0 ? (
        <div className="empty-state" tabIndex={-1} data-focus-fallback="empty">
          {empty}
        </div>
      ) : (
        <>
          <ul className="oh-grid" aria-label={label}>
            {items.map((oh) => (
              <li key={oh.id}>
                <OpenHouseCard
                  oh={oh}
                  list={list}
                  agentId={agentId}
                  onAction={onAction}
                  pending={pendingFor(oh)}
                />
              </li>
            ))}
          </ul>
          {!narrow && points.length > 0 && <PropertyMapCard label={`Map of ${label}`} points={points} />}
        </>
      )}

      <ConfirmDialog
        isOpen={dialog?.kind === 'claim'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Claim this open house?"
        confirmLabel="Yes, claim it"
        onConfirm={() => dialog && confirmClaim(dialog.oh)}
        isPending={claim.isPending}
      >
        {dialog && (
          <p>
            Are you sure you want to host the open house at {dialog.oh.reProperty.completePropertyAddress} on{' '}
            {scheduleDateText(dialog.oh)}, {scheduleTimeText(dialog.oh)}?
            {needsScheduleOnClaim(dialog.oh) && ' You will pick the date and time next.'}
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={dialog?.kind === 'withdraw'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Withdraw from hosting?"
        confirmLabel="Yes, withdraw"
        onConfirm={() => dialog && confirmWithdraw(dialog.oh)}
        isPending={withdraw.isPending}
      >
        {dialog && (
          <p>
            Are you sure you want to stop hosting the open house at{' '}
            {dialog.oh.reProperty.completePropertyAddress}? It will be offered to other agents again.
          </p>
        )}
      </ConfirmDialog>
      <OpenHouseDetailsDialog
        oh={dialog?.kind === 'details' ? dialog.oh : null}
        onClose={() => setDialog(null)}
      />
      <QrCodeDialog oh={dialog?.kind === 'qrcode' ? dialog.oh : null} onClose={() => setDialog(null)} />
    </div>
  )
}

/** The invitation's open house is no longer on offer: say who claimed it, as the race was lost. */
function LateInvitation({ openHouseId }: { openHouseId: number }) {
  const details = useQuery({ ...openHouseDetailsQueryOptions(openHouseId), retry: false })
  if (details.isPending) return null
  const oh = details.data
  const text =
    oh?.hostingREAgentName && oh.status === 'Hosted'
      ? `${oh.hostingREAgentName} already claimed the open house at ${oh.reProperty.completePropertyAddress}.`
      : oh?.status === 'Canceled'
        ? `The open house at ${oh.reProperty.completePropertyAddress} was canceled.`
        : 'This open house is no longer offered to you.'
  return <Alert tone="info" title={text} />
}
