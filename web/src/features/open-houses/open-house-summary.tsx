import type { OpenHouseDetails } from '@porchlight/shared'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import { StatusBadge } from './status-badge.tsx'

/** The few facts that name an open house on its action pages (confirm, cancel, update schedule). */
export function OpenHouseSummary({ oh }: { oh: OpenHouseDetails }) {
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
