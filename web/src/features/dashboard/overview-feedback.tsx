import type { FeedbackWeek } from '@porchlight/shared'
import { type Column, DataTable } from '../../ui/DataTable.tsx'
import { dayAndDate } from './overview-open-houses.tsx'

type Row = FeedbackWeek & { id: number }

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const short = (isoDate: string) => shortDate.format(new Date(`${isoDate}T00:00:00Z`))

const columns: Column<Row>[] = [
  {
    key: 'week',
    header: 'Week',
    cell: (w) => (
      <span className="overview-trend__week" title={`${dayAndDate(w.weekStart)} to ${dayAndDate(w.weekEnd)}`}>
        {short(w.weekStart)} – {short(w.weekEnd)}
      </span>
    ),
  },
  { key: 'count', header: 'Feedback', cell: (w) => w.count, className: 'stats-table__number' },
  {
    key: 'average',
    header: 'Overall Experience',
    cell: (w) =>
      w.averageOverallExperience === null ? (
        <span className="overview-trend__none">No rating</span>
      ) : (
        <span className="overview-trend__rating">
          {/* The bar repeats the number for the eye; the number is what is read out. */}
          <span className="overview-trend__bar" aria-hidden="true">
            <span style={{ width: `${(w.averageOverallExperience / 5) * 100}%` }} />
          </span>
          {w.averageOverallExperience} of 5
        </span>
      ),
  },
]

/** Six weeks of feedback on the agent's open houses: how many gave it and their Overall Experience. */
export function FeedbackTrend({ weeks }: { weeks: FeedbackWeek[] }) {
  if (weeks.every((w) => w.count === 0)) {
    return (
      <div className="empty-state">
        <p>No feedback in the last 6 weeks.</p>
        <p className="overview-card__hint">
          Guests can leave feedback after signing in at your open house with its QR code.
        </p>
      </div>
    )
  }
  return (
    <DataTable
      caption="Feedback trend, last 6 weeks"
      columns={columns}
      rows={weeks.map((w, i) => ({ ...w, id: i }))}
    />
  )
}
