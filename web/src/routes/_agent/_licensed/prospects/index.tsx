import { createFileRoute } from '@tanstack/react-router'
import { ProspectsPage } from '../../../../features/prospects/prospects-page.tsx'
import { ownProspectsQueryOptions } from '../../../../features/prospects/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects: the agent's prospects. */
export const Route = createFileRoute('/_agent/_licensed/prospects/')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent } }) =>
    queryClient.prefetchQuery(ownProspectsQueryOptions(agent.id)),
  component: ProspectsPage,
})
