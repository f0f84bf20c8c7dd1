import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { requireAgent } from '../../../../../features/session/queries.ts'
import { teamMembersQueryOptions } from '../../../../../features/teams/queries.ts'
import { TeamMembersPage } from '../../../../../features/teams/team-members-page.tsx'

/** SPEC /mystuff/myteams/{reTeamId}/manageMembers: the member list. */
export const Route = createFileRoute('/_agent/_licensed/mystuff/myteams/$reTeamId/manageMembers/')({
  params: {
    parse: ({ reTeamId }) => ({ reTeamId: Id.parse(reTeamId) }),
    stringify: ({ reTeamId }) => ({ reTeamId: String(reTeamId) }),
  },
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient }, params }) =>
    queryClient.ensureQueryData(teamMembersQueryOptions(params.reTeamId)),
  component: TeamMembersPage,
})
