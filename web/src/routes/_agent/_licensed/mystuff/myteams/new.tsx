import { canManageMyTeams } from '@porchlight/shared'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { firmAgentsQueryOptions } from '../../../../../features/agents/queries.ts'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'
import { TeamNewPage } from '../../../../../features/teams/team-form-pages.tsx'

/** SPEC /mystuff/myteams/new: 'Team Details - New/Edit' for a new team (Team Lead only, SPEC §6). */
export const Route = createFileRoute('/_agent/_licensed/mystuff/myteams/new')({
  beforeLoad: ({ context }) => {
    const agent = requireAgent(context.session)
    if (!canManageMyTeams(agent.reAgentRole)) throw redirect({ to: '/mystuff' })
    return { agent }
  },
  // The firm's roster is for its verified members only; the form tells the others why Save is held back.
  loader: ({ context: { queryClient, agent, session } }) =>
    Promise.all([
      agent.firmMembershipStatus === 'verified' &&
        queryClient.ensureQueryData(firmAgentsQueryOptions(agent.reAgentBrokerFirmLicense)),
      session.activePlan && queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: TeamNewPage,
})
