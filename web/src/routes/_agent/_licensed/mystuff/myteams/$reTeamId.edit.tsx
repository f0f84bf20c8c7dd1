import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { firmAgentsQueryOptions } from '../../../../../features/agents/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'
import { teamDetailsQueryOptions } from '../../../../../features/teams/queries.ts'
import { TeamEditPage } from '../../../../../features/teams/team-form-pages.tsx'

/** SPEC /mystuff/myteams/{reTeamId}/edit: 'Team Details - New/Edit' for the team's lead. */
export const Route = createFileRoute('/_agent/_licensed/mystuff/myteams/$reTeamId/edit')({
  params: {
    parse: ({ reTeamId }) => ({ reTeamId: Id.parse(reTeamId) }),
    stringify: ({ reTeamId }) => ({ reTeamId: String(reTeamId) }),
  },
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(teamDetailsQueryOptions(params.reTeamId)),
      agent.firmMembershipStatus === 'verified' &&
        queryClient.ensureQueryData(firmAgentsQueryOptions(agent.reAgentBrokerFirmLicense)),
    ]),
  component: TeamEditPage,
})
