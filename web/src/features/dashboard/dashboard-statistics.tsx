import { canSeeTeamSummary } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { changedIn, useLiveChanges } from './live-changes.ts'
import { dashboardStatisticsQueryOptions } from './queries.ts'
import { StatisticsTable } from './statistics-table.tsx'

const STATS_FAILED = "Couldn't load your open house summary."

/**
 * SPEC §2 dashboard statistics: 'Overall Open House Summary' and, for a Team Lead only (SPEC §6),
 * 'My Team Summary' with a row per person of each team. Socket events refetch the numbers
 * (live/events.ts); what moved is highlighted and read out politely.
 */
export function DashboardStatistics({ agentId, role }: { agentId: number; role: string }) {
  const stats = useQuery(dashboardStatisticsQueryOptions(agentId))
  const changes = useLiveChanges(stats.data)
  const teamLead = canSeeTeamSummary(role)

  return (
    <>
      <div role="status" aria-live="polite" aria-atomic="true" className="visually-hidden">
        {changes.announcement && <p>{changes.announcement}</p>}
      </div>
      <section className="dashboard__section" aria-labelledby="overall-summary-title">
        <h2 id="overall-summary-title">Overall Open House Summary</h2>
        {stats.isPending ? (
          <Spinner label="Loading your open house summary…" />
        ) : stats.isError ? (
          <Alert
            tone="error"
            title={errorMessage(stats.error, STATS_FAILED)}
            actions={<Button onPress={() => void stats.refetch()}>Try again</Button>}
          />
        ) : (
          <StatisticsTable
            caption="Overall Open House Summary"
            rows={[stats.data.overall]}
            changed={changedIn(changes, 'overall')}
          />
        )}
      </section>
      {teamLead && (
        <section className="dashboard__section" aria-labelledby="team-summary-title">
          <h2 id="team-summary-title">My Team Summary</h2>
          {stats.isPending ? (
            <Spinner label="Loading your team summary…" />
          ) : stats.isError ? null : stats.data.teamSummaries.length === 0 ? (
            <div className="empty-state">
              <p>You have no teams yet, so there is no team summary to show.</p>
              <Link
                to="/mystuff"
                search={{ activeSection: 'manageMyTeams' }}
                variant="button-secondary"
                className="empty-state__action"
              >
                Manage My Teams
              </Link>
            </div>
          ) : (
            stats.data.teamSummaries.map((team) => (
              <div key={team.reTeamId} className="dashboard__team">
                <h3>{team.reTeamName}</h3>
                <StatisticsTable
                  caption={`My Team Summary: ${team.reTeamName}`}
                  rows={team.members}
                  changed={changedIn(changes, String(team.reTeamId))}
                  emptyHint="Add members to this team under My Stuff, Manage My Teams."
                />
              </div>
            ))
          )}
        </section>
      )}
    </>
  )
}
