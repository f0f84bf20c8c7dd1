import { canEditTeam, messages } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { Alert } from '../../ui/Alert.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { teamLimitReached } from './limits.ts'
import { teamDetailsQueryOptions } from './queries.ts'
import { TeamForm } from './team-form.tsx'

const editRoute = getRouteApi('/_agent/_licensed/mystuff/myteams/$reTeamId/edit')

/**
 * /mystuff/myteams/new: Save is held back, with SPEC §8's text, once the plan's teams are used up, and
 * until the agent's firm membership is verified.
 */
export function TeamNewPage() {
  const { agent, activePlan } = useSessionInfo()
  const { data: utilization } = useQuery({
    ...planUtilizationQueryOptions(agent?.id ?? 0),
    enabled: Boolean(agent && activePlan),
  })
  if (!agent) return null
  const blocked =
    agent.firmMembershipStatus !== 'verified'
      ? messages.firmNotVerified
      : !activePlan
        ? 'Choose a pricing plan to create teams.'
        : utilization && teamLimitReached(utilization)
          ? messages.teamLimitReached
          : null
  return <TeamForm agent={agent} blockedReason={blocked} />
}

/** /mystuff/myteams/{reTeamId}/edit: the team's lead only (SPEC §6 'Team Edit: team lead only'). */
export function TeamEditPage() {
  const { reTeamId } = editRoute.useParams()
  const { agent } = useSessionInfo()
  const { data: team } = useSuspenseQuery(teamDetailsQueryOptions(reTeamId))
  if (!agent) return null
  if (!canEditTeam(agent.id, team.reTeam)) {
    return (
      <FormPage title="Team Details - New/Edit" eyebrow="Edit team">
        <Alert
          tone="info"
          title="Only the team lead can edit this team."
          actions={
            <Link to="/mystuff" search={{ activeSection: 'manageMyTeams' }} variant="button-secondary">
              Back to My Teams
            </Link>
          }
        >
          {team.reTeam.reTeamName} is led by {team.reAgentTeamLeadDetails.reAgentFirstName}{' '}
          {team.reAgentTeamLeadDetails.reAgentLastName}.
        </Alert>
      </FormPage>
    )
  }
  return <TeamForm agent={agent} team={team} />
}
