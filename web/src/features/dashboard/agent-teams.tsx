import { canManageMyTeams, type Team } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { agentTeamsQueryOptions } from '../teams/queries.ts'
import { TeamStatus } from '../teams/team-status.tsx'
import '../teams/teams.css'
import { InvitationGone, type Notice, TeamInvitations } from './team-invitations.tsx'

// The modal (and react-aria's dialog code) loads on first use, keeping it out of the dashboard's
// initial load (DESIGN.md: agent app ≤ 250 KB gzipped).
const TeamDetailsDialog = lazy(() =>
  import('../teams/team-details-dialog.tsx').then((m) => ({ default: m.TeamDetailsDialog })),
)

function roleIn(team: Team, agentId: number): string {
  if (team.reTeamLeadId === agentId) return 'Team Lead'
  if (team.reCoTeamLeadId === agentId) return 'Co-Team Lead'
  return 'Member'
}

interface AgentTeamsProps {
  agentId: number
  role: string
  /** ?invitation={reTeamId} from the invitation mail's link. */
  invitationId?: number
  /** Drops ?invitation= once that invitation is answered or its notice dismissed. */
  onInvitationDone: () => void
}

/**
 * The agent's teams (led, co-led or joined), each opening the team details modal (SPEC §2), and above
 * them the teams it is invited to, with Accept and Decline. An accepted team joins the list.
 */
export function AgentTeams({ agentId, role, invitationId, onInvitationDone }: AgentTeamsProps) {
  const teams = useQuery(agentTeamsQueryOptions(agentId))
  const [open, setOpen] = useState<Team | null>(null)
  const [used, setUsed] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)
  const show = (team: Team) => {
    setUsed(true)
    setOpen(team)
  }
  // The link's invitation first, so it is the one in view.
  const invitations = (teams.data?.filter((t) => t.invitationStatus === 'invited') ?? []).sort(
    (a, b) => Number(b.id === invitationId) - Number(a.id === invitationId),
  )
  const mine = teams.data?.filter((t) => t.invitationStatus !== 'invited') ?? []
  const linkGone =
    invitationId !== undefined && teams.isSuccess && !invitations.some((t) => t.id === invitationId)

  return (
    <section className="dashboard__section" aria-labelledby="dashboard-teams-title">
      <h2 id="dashboard-teams-title">My Teams</h2>
      {notice && <Alert tone={notice.tone} title={notice.text} />}
      {linkGone && !notice && (
        <InvitationGone joined={mine.find((t) => t.id === invitationId)} onDismiss={onInvitationDone} />
      )}
      {teams.isPending ? (
        <Spinner label="Loading your teams…" />
      ) : teams.isError ? (
        <Alert
          tone="error"
          title={errorMessage(teams.error, "Couldn't load your teams.")}
          actions={<Button onPress={() => void teams.refetch()}>Try again</Button>}
        />
      ) : (
        <>
          {invitations.length > 0 && (
            <TeamInvitations
              agentId={agentId}
              invitations={invitations}
              targetId={invitationId}
              onDetails={show}
              onNotice={setNotice}
              onTargetAnswered={onInvitationDone}
            />
          )}
          {mine.length === 0 ? (
            <div className="empty-state">
              {canManageMyTeams(role) ? (
                <>
                  <p>You are not part of a team yet. Create one and invite agents of your firm.</p>
                  <Link to="/mystuff/myteams/new" variant="button-secondary" className="empty-state__action">
                    New Team
                  </Link>
                </>
              ) : invitations.length > 0 ? (
                <p>You are not part of a team yet. Accept an invitation above to join one.</p>
              ) : (
                <p>You are not part of a team yet. A Team Lead of your broker firm can invite you to one.</p>
              )}
            </div>
          ) : (
            <ul className="dashboard-teams" aria-label="My Teams">
              {mine.map((team) => (
                <li key={team.id} className="card dashboard-teams__item">
                  <div className="dashboard-teams__text">
                    <h3>{team.reTeamName}</h3>
                    <p className="dashboard-teams__meta">
                      {team.teamType} · {roleIn(team, agentId)}
                    </p>
                  </div>
                  <TeamStatus active={team.reTeamActiveFlag} />
                  <Button
                    size="sm"
                    onPress={() => show(team)}
                    aria-label={`Team details of ${team.reTeamName}`}
                  >
                    Details
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {used && (
        <Suspense fallback={<Spinner label="Opening the team details…" />}>
          <TeamDetailsDialog
            teamId={open?.id ?? null}
            teamName={open?.reTeamName}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
    </section>
  )
}
