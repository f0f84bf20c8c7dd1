import type { DashboardOverview, OverviewOpenHouse } from '@porchlight/shared'
import { formatDate } from '../../ui/format.ts'
import { HrefLink, Link } from '../../ui/Link.tsx'
import { StatusBadge } from '../open-houses/status-badge.tsx'
import '../../ui/card-list.css'

const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' })

/** 'Thu 11/26/2026': a calendar date with its day of the week. */
export function dayAndDate(isoDate: string): string {
  return `${weekday.format(new Date(`${isoDate}T00:00:00Z`))} ${formatDate(isoDate)}`
}

function OpenHouseItem({ oh, agentId }: { oh: OverviewOpenHouse; agentId: number }) {
  const hosting = oh.hostingREAgentId === agentId && oh.status !== 'Canceled'
  const listing = oh.listingREAgentId === agentId
  return (
    <li className="overview-item">
      <div className="overview-item__text">
        <p className="overview-item__when">
          {dayAndDate(oh.scheduledDate)} · {oh.scheduledStartTime} – {oh.scheduledEndTime}
        </p>
        <p className="overview-item__title">{oh.completePropertyAddress}</p>
        <p className="overview-item__meta">
          {oh.hostingREAgentFullName ? `Host: ${oh.hostingREAgentFullName}` : 'No host yet'}
          {!listing && ` · Listed by ${oh.listingREAgentFullName}`}
        </p>
      </div>
      <StatusBadge status={oh.status} />
      {hosting ? (
        <Link
          to="/openhouses/schedule/$openHouseId/manage"
          params={{ openHouseId: oh.id }}
          search={{ rePropertyId: oh.rePropertyId }}
          variant="button-secondary"
          aria-label={`Manage attendees at ${oh.completePropertyAddress}`}
        >
          Manage attendees
        </Link>
      ) : (
        <Link
          to="/openhouses"
          search={{ activeSection: 'upcomingOH' }}
          variant="button-secondary"
          aria-label={`${oh.completePropertyAddress} in My Upcoming Open Houses`}
        >
          View
        </Link>
      )}
    </li>
  )
}

/** The coming week's open houses the agent lists or hosts, each with where to go next. */
export function NextOpenHouses({
  agentId,
  list,
}: {
  agentId: number
  list: DashboardOverview['nextOpenHouses']
}) {
  if (list.items.length === 0) {
    return (
      <div className="empty-state">
        <p>No open houses this week.</p>
        <p className="overview-card__hint">
          Schedule one with Schedule Open House above, or see what is coming later in My Upcoming Open Houses.
        </p>
        <Link
          to="/openhouses"
          search={{ activeSection: 'upcomingOH' }}
          variant="button-secondary"
          className="empty-state__action"
        >
          My Upcoming Open Houses
        </Link>
      </div>
    )
  }
  const more = list.total - list.items.length
  return (
    <>
      <ul className="overview-list" aria-labelledby="overview-open-houses-title">
        {list.items.map((oh) => (
          <OpenHouseItem key={oh.id} oh={oh} agentId={agentId} />
        ))}
      </ul>
      {more > 0 && (
        <p className="overview-card__more">
          <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }}>
            {more} more this week in My Upcoming Open Houses
          </Link>
        </p>
      )}
    </>
  )
}

/** This week's guests: all of them and those who have no realtor (the leads to call first). */
export function LeadsThisWeek({ leads }: { leads: DashboardOverview['leadsThisWeek'] }) {
  return (
    <>
      <dl className="overview-figures">
        <div className="overview-figure">
          <dt>Total Leads</dt>
          <dd>{leads.total}</dd>
        </div>
        <div className="overview-figure">
          <dt>Leads Without Realtor</dt>
          <dd>{leads.withoutRealtor}</dd>
        </div>
      </dl>
      <p className="overview-card__hint">
        {leads.total === 0
          ? `No guests signed in at your open houses from ${formatDate(leads.from)} to ${formatDate(leads.to)}.`
          : `From ${formatDate(leads.from)} to ${formatDate(leads.to)}.`}
      </p>
      <HrefLink href="/prospects" variant="button-secondary" className="overview-card__action">
        See your prospects
      </HrefLink>
    </>
  )
}
