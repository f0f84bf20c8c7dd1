import { canEditTeam, canManageTeamMembers, messages, type Team } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { Link } from '../../ui/Link.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { teamLimitReached } from './limits.ts'
import { agentTeamsQueryOptions } from './queries.ts'
import { TeamStatus } from './team-status.tsx'
import './teams.css'

interface MyTeamsProps {
  reAgentId: number
  /** Without a plan in force no team can be created (the server answers 402 NO_ACTIVE_PLAN). */
  hasActivePlan: boolean
  /** Only a verified member of its broker firm may create teams (the server answers 403 otherwise). */
  firmVerified: boolean
}

/**
 * The 'Manage My Teams' tab (Team Lead only): the teams the agent leads or co-leads, each with Edit
 * (lead only) and Manage Members, and New Team, held back with SPEC §8's text at the plan's limit.
 */
export function MyTeams({ reAgentId, hasActivePlan, firmVerified }: MyTeamsProps) {
  const teams = useSuspenseQuery(agentTeamsQueryOptions(reAgentId))
  const { data: utilization } = useQuery({
    ...planUtilizationQueryOptions(reAgentId),
    enabled: hasActivePlan,
  })
  const [refreshing, setRefreshing] = useState(false)
  const mine = teams.data.filter((team) => canManageTeamMembers(reAgentId, team))
  const blocked = !firmVerified
    ? messages.firmNotVerified
    : !hasActivePlan
      ? 'Choose a pricing plan to create teams.'
      : utilization && teamLimitReached(utilization)
        ? messages.teamLimitReached
        : null

  const refresh = async () => {
    setRefreshing(true)
    try {
      await teams.refetch()
    } finally {
      setRefreshing(false)
    }
  }

  return (
    <div className="my-teams">
      <div className="my-teams__header">
        <div>
          <h2>My Teams</h2>
          <p className="my-teams__count">
            {mine.length === 1 ? '1 team' : `${mine.length} teams`}
            {utilization && hasActivePlan && (
              <>
                {' '}
                · {utilization.pricingPlanUtilization.totalCreatedTeams} of{' '}
                {utilization.pricePlan.numberOfTeamsCreate} your plan allows created
              </>
            )}
          </p>
        </div>
        <div className="teams__actions">
          <Button onPress={refresh} isPending={refreshing}>
            Refresh
          </Button>
          {blocked ? (
            <DisabledLink variant="button-primary" reason={blocked}>
              New Team
            </DisabledLink>
          ) : (
            <Link to="/mystuff/myteams/new" variant="button-primary">
              New Team
            </Link>
          )}
        </div>
      </div>
      {blocked && <Alert tone="info" title={blocked} />}
      {mine.length === 0 ? (
        <div className="empty-state">
          <p>You have no teams yet.</p>
          {!blocked && <p>Create one with New Team, then add agents of your broker firm as members.</p>}
        </div>
      ) : (
        <ul className="team-grid" aria-label="My Teams">
          {mine.map((team) => (
            <li key={team.id}>
              <TeamCard team={team} reAgentId={reAgentId} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function TeamCard({ team, reAgentId }: { team: Team; reAgentId: number }) {
  const leads = canEditTeam(reAgentId, team)
  return (
    <article className="card team-card" aria-label={team.reTeamName}>
      <div className="team-card__header">
        <h3 className="team-card__name">{team.reTeamName}</h3>
        <TeamStatus active={team.reTeamActiveFlag} />
      </div>
      <p className="team-card__meta">
        {team.teamType} · {leads ? 'You lead this team' : 'You co-lead this team'}
      </p>
      <div className="team-card__actions">
        {leads ? (
          <Link
            to="/mystuff/myteams/$reTeamId/edit"
            params={{ reTeamId: team.id }}
            variant="button-secondary"
            aria-label={`Edit ${team.reTeamName}`}
          >
            Edit
          </Link>
        ) : (
          <DisabledLink variant="button-secondary" reason="Only the team lead can edit this team.">
            Edit
          </DisabledLink>
        )}
        <Link
          to="/mystuff/myteams/$reTeamId/manageMembers"
          params={{ reTeamId: team.id }}
          variant="button-secondary"
          aria-label={`Manage Members of ${team.reTeamName}`}
        >
          Manage Members
        </Link>
      </div>
    </article>
  )
}
