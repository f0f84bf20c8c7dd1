import { canManageMyTeams, isSchedulerRole } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { agentQueryOptions, firmAgentsQueryOptions } from '../../../../features/agents/queries.ts'
import { MyStuffPage } from '../../../../features/mystuff/mystuff-page.tsx'
import { MyStuffSearch } from '../../../../features/mystuff/sections.ts'
import { activePlanQueryOptions, planUtilizationQueryOptions } from '../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'
import { agentTeamsQueryOptions } from '../../../../features/teams/queries.ts'

export const Route = createFileRoute('/_agent/_licensed/mystuff/')({
  validateSearch: MyStuffSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  // The plan calls are licensed: a lapsed license answers 403 LICENSE_INVALID and the gate shows.
  loader: async ({ context: { queryClient, agent } }) => {
    const [profile, active] = await Promise.all([
      queryClient.ensureQueryData(agentQueryOptions(agent.id)),
      queryClient.ensureQueryData(activePlanQueryOptions(agent.id)),
      canManageMyTeams(agent.reAgentRole) && queryClient.ensureQueryData(agentTeamsQueryOptions(agent.id)),
    ])
    // The Firm Members tab loads on its own (with its own spinner and error); start it early.
    if (profile.firmMembershipStatus === 'verified' && isSchedulerRole(profile.reAgentRole)) {
      void queryClient.prefetchQuery(firmAgentsQueryOptions(profile.reAgentBrokerFirmLicense))
    }
    if (active) await queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id))
  },
  component: MyStuffPage,
})
