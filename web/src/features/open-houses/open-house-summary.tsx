import type { OpenHouseDetails } from '@porchlight/shared'
import { scheduleDateText, scheduledNote, scheduleTimeText } from './permissions.ts'
import { StatusBadge } from './status-badge.tsx'

/**
 * The few facts that name an open house on its action pages (confirm, cancel, update schedule). The
 * listing agent row already says whom a scheduler scheduled it for; the listing agent reads who did.
 */
export function OpenHouseSummary({ oh, agentId }: { oh: OpenHouseDetails; agentId: number }) {
  const note = agentId === oh.scheduledByREAgentId ? null : scheduledNote(oh, agentId)
  return (
    <dl className="details oh-summary">
      <div className="details__item">
        <dt>Date</dt>
        <dd>{scheduleDateText(oh)}</dd>
      </div>
      <div className="details__item">
        <dt>Time</dt>
        <dd>{scheduleTimeText(oh)}</dd>
      </div>
      <div className="details__item">
        <dt>Listing agent</dt>
        <dd>
          {oh.listingREAgentName}
          {note && <span className="oh-summary__note">{note}</span>}
        </dd>
      </div>
      <div className="details__item">
        <dt>Publish level</dt>
        <dd>{oh.publishLevel}</dd>
      </div>
      <div className="details__item">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={oh.status} />
        </dd>
      </div>
    </dl>
  )
}
