import type { DashboardOverview } from '@porchlight/shared'
import { HrefLink, Link } from '../../ui/Link.tsx'
import { dayAndDate } from './overview-open-houses.tsx'

/** Team invitations to answer and, for who decides on them, agents asking to join the firm. */
export function PendingRequests({ requests }: { requests: DashboardOverview['pendingRequests'] }) {
  const { teamInvitations, firmMembers } = requests
  const firmWaiting = firmMembers?.total ?? 0
  if (teamInvitations.length === 0 && firmWaiting === 0) {
    return (
      <div className="empty-state">
        <p>Nothing is waiting for your answer.</p>
        <p className="overview-card__hint">
          Team invitations{firmMembers ? ' and requests to join your firm' : ''} will show here.
        </p>
      </div>
    )
  }
  return (
    <ul className="overview-list" aria-labelledby="overview-requests-title">
      {teamInvitations.map((team) => (
        <li key={team.reTeamId} className="overview-item">
          <div className="overview-item__text">
            <p className="overview-item__title">Invitation to {team.reTeamName}</p>
            <p className="overview-item__meta">
              {team.teamType} · from {team.reTeamLeadFullName}
            </p>
          </div>
          <Link
            to="/dashboard"
            search={{ invitation: team.reTeamId }}
            variant="button-secondary"
            aria-label={`Answer the invitation to ${team.reTeamName}`}
          >
            Answer
          </Link>
        </li>
      ))}
      {firmMembers && firmWaiting > 0 && (
        <li className="overview-item">
          <div className="overview-item__text">
            <p className="overview-item__title">
              {firmWaiting === 1
                ? '1 agent asks to join your firm'
                : `${firmWaiting} agents ask to join your firm`}
            </p>
            <p className="overview-item__meta">
              {firmMembers.items.map((m) => m.reAgentFullName).join(', ')}
              {firmWaiting > firmMembers.items.length && ' and more'}
            </p>
          </div>
          <Link
            to="/mystuff"
            search={{ activeSection: 'firmMembers' }}
            variant="button-secondary"
            aria-label="Review the requests to join your firm"
          >
            Review
          </Link>
        </li>
      )}
    </ul>
  )
}

/** The agent's prospects to contact: overdue first (marked in words), then by date. */
export function FollowUpsDue({ list }: { list: DashboardOverview['followUpsDue'] }) {
  if (list.items.length === 0) {
    return (
      <div className="empty-state">
        <p>No follow-ups due.</p>
        <p className="overview-card__hint">Set a next follow-up date on a prospect to see it here.</p>
        <HrefLink href="/prospects" variant="button-secondary" className="empty-state__action">
          Go to my prospects
        </HrefLink>
      </div>
    )
  }
  const more = list.total - list.items.length
  return (
    <>
      <ul className="overview-list" aria-labelledby="overview-follow-ups-title">
        {list.items.map((p) => (
          <li key={p.prospectId} className="overview-item">
            <div className="overview-item__text">
              <p className="overview-item__title">
                <HrefLink href="/prospects" aria-label={`${p.prospectFullName}, in my prospects`}>
                  {p.prospectFullName}
                </HrefLink>
              </p>
              <p className="overview-item__meta">
                {dayAndDate(p.nextFollowUpDate)} · {p.prospectStage}
              </p>
            </div>
            {p.overdue && <span className="overview-overdue">Overdue</span>}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="overview-card__more">
          <HrefLink href="/prospects">{more} more due in my prospects</HrefLink>
        </p>
      )}
    </>
  )
}
