import type { OpenHouseDetails } from '@porchlight/shared'
import { useLiveNotice } from '../../live/bridge.ts'
import { cx } from '../../ui/cx.ts'
import { type ListAction, OpenHouseActions } from './open-house-actions.tsx'
import { copyLabel, may, scheduleDateText, scheduledNote, scheduleTimeText } from './permissions.ts'
import type { OpenHouseList } from './queries.ts'
import { StatusBadge } from './status-badge.tsx'

interface OpenHouseCardProps {
  oh: OpenHouseDetails
  list: OpenHouseList
  agentId: number
  onAction: (action: ListAction, oh: OpenHouseDetails) => void
  pending?: ListAction | null
}

/** One open house in grid view: address, when, who, status, and the agent's actions. */
export function OpenHouseCard({ oh, list, agentId, onAction, pending }: OpenHouseCardProps) {
  const notice = useLiveNotice(oh.id)
  const titleId = `oh-${list}-${oh.id}-title`
  const p = oh.reProperty
  const zip = p.propertyZipPlus4 ? `${p.propertyZipCode}-${p.propertyZipPlus4}` : p.propertyZipCode
  const note = scheduledNote(oh, agentId)
  const copy = copyLabel(oh)
  return (
    <article
      className={cx('card oh-card', notice && `oh-card--${notice.kind}`)}
      aria-labelledby={titleId}
      data-open-house-id={oh.id}
    >
      <header className="oh-card__header">
        <div className="oh-card__badges">
          <StatusBadge status={oh.status} />
          <span className="oh-card__for">For {oh.openHouseFor}</span>
          {notice?.kind === 'new' && <span className="oh-card__new">New</span>}
        </div>
        <h3 id={titleId} className="oh-card__title">
          {p.propertyAddress1}
          {p.propertyAddress2 ? `, ${p.propertyAddress2}` : ''}
        </h3>
        <p className="oh-card__place">
          {p.propertyCity}, {p.propertyState} {zip}
        </p>
        {note && <p className="oh-card__scheduled">{note}</p>}
        {copy && <p className="oh-card__scheduled">{copy}</p>}
      </header>
      {notice?.kind === 'claimed' && (
        <p className="oh-card__claimed">
          Claimed by <strong>{notice.hostingReAgentName}</strong>
        </p>
      )}
      <dl className="oh-card__facts">
        <div>
          <dt>Date</dt>
          <dd>{scheduleDateText(oh)}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{scheduleTimeText(oh)}</dd>
        </div>
        <div>
          <dt>Listing agent</dt>
          <dd>{oh.listingREAgentName}</dd>
        </div>
        <div>
          <dt>Host</dt>
          <dd>{oh.hostingREAgentName ?? 'Not claimed yet'}</dd>
        </div>
        <div>
          <dt>Publish level</dt>
          <dd>
            {oh.publishLevel}
            {oh.status !== 'Canceled' &&
              oh.publishLevel !== 'Hosting Myself' &&
              may(oh, 'publish') &&
              !oh.published && <span className="oh-card__muted"> · not published yet</span>}
          </dd>
        </div>
        <div>
          <dt>Property type</dt>
          <dd>{p.propertyType}</dd>
        </div>
      </dl>
      <OpenHouseActions oh={oh} list={list} onAction={onAction} pending={pending} />
    </article>
  )
}
