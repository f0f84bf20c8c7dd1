import type { OpenHouseStatus } from '@porchlight/shared'

const tone: Record<OpenHouseStatus, string> = {
  Canceled: 'canceled',
  Hosted: 'hosted',
  'Not Hosted': 'open',
  'Pick your own date': 'flexible',
}

/** SPEC §4 list status, always as text plus colour (DESIGN.md "Look and feel"). */
export function StatusBadge({ status }: { status: OpenHouseStatus }) {
  return (
    <span className={`oh-status oh-status--${tone[status]}`}>
      <span className="oh-status__dot" aria-hidden="true" />
      {status}
    </span>
  )
}
