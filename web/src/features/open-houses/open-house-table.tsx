import type { OpenHouseDetails } from '@porchlight/shared'
import { useLiveNotice } from '../../live/bridge.ts'
import type { Column } from '../../ui/DataTable.tsx'
import { type ListAction, OpenHouseActions } from './open-house-actions.tsx'
import { scheduleDateText, scheduledNote, scheduleTimeText } from './permissions.ts'
import type { OpenHouseList } from './queries.ts'
import { StatusBadge } from './status-badge.tsx'

function LiveStatus({ oh }: { oh: OpenHouseDetails }) {
  const notice = useLiveNotice(oh.id)
  return (
    <div className="oh-table__status">
      <StatusBadge status={oh.status} />
      {notice?.kind === 'claimed' && (
        <span className="oh-table__claimed">Claimed by {notice.hostingReAgentName}</span>
      )}
      {notice?.kind === 'new' && <span className="oh-card__new">New</span>}
    </div>
  )
}

/** List view: one line per open house, its primary action and the same More menu as its card. */
export function openHouseColumns(
  list: OpenHouseList,
  agentId: number,
  onAction: (action: ListAction, oh: OpenHouseDetails) => void,
  pendingFor: (oh: OpenHouseDetails) => ListAction | null,
): Column<OpenHouseDetails>[] {
  return [
    {
      key: 'property',
      header: 'Property',
      className: 'oh-table__property',
      cell: (oh) => (
        <>
          <strong>{oh.reProperty.propertyAddress1}</strong>
          <span className="oh-card__muted">
            , {oh.reProperty.propertyCity}, {oh.reProperty.propertyState}
          </span>
        </>
      ),
    },
    {
      key: 'when',
      header: 'Date and time',
      cell: (oh) => (
        <>
          {scheduleDateText(oh)} <span className="oh-card__muted">· {scheduleTimeText(oh)}</span>
        </>
      ),
    },
    { key: 'status', header: 'Status', cell: (oh) => <LiveStatus oh={oh} /> },
    {
      key: 'listing',
      header: 'Listing agent',
      cell: (oh) => {
        const note = scheduledNote(oh, agentId)
        return (
          <>
            {oh.listingREAgentName}
            {note && <span className="oh-card__muted"> · {note}</span>}
          </>
        )
      },
    },
    { key: 'host', header: 'Host', cell: (oh) => oh.hostingREAgentName ?? '—' },
    { key: 'level', header: 'Publish level', cell: (oh) => oh.publishLevel },
    {
      key: 'actions',
      header: 'Actions',
      className: 'oh-table__actions',
      cell: (oh) => <OpenHouseActions oh={oh} list={list} onAction={onAction} pending={pendingFor(oh)} />,
    },
  ]
}
