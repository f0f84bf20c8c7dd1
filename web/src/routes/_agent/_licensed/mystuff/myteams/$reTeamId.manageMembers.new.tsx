import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { firmAgentsQueryOptions } from '../../../../../features/agents/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'
import { AddMemberPage } from '../../../../../features/teams/add-member-page.tsx'
import { teamMembersQueryOptions } from '../../../../../features/teams/queries.ts'

/** SPEC /mystuff/myteams/{reTeamId}/manageMembers/new: 'Add Team Member'. */
export const Route = createFileRoute('/_agent/_licensed/mystuff/myteams/$reTeamId/manageMembers/new')({
  params: {
    parse: ({ reTeamId }) => ({ reTeamId: Id.parse(reTeamId) }),
    stringify: ({ reTeamId }) => ({ reTeamId: String(reTeamId) }),
  },
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(teamMembersQueryOptions(params.reTeamId)),
      agent.firmMembershipStatus === 'verified' &&
        queryClient.ensureQueryData(firmAgentsQueryOptions(agent.reAgentBrokerFirmLicense)),
    ]),
  component: AddMemberPage,
})
