import { createFileRoute } from '@tanstack/react-router'
import { ProspectsPage } from '../../../../features/prospects/prospects-page.tsx'
import { ownProspectPageQueryOptions } from '../../../../features/prospects/queries.ts'
import { ProspectListSearch } from '../../../../features/prospects/search.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects: the agent's prospects, sorted, filtered and paged as the address says. */
export const Route = createFileRoute('/_agent/_licensed/prospects/')({
  validateSearch: ProspectListSearch,
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, deps }) =>
    queryClient.prefetchQuery(ownProspectPageQueryOptions(agent.id, deps)),
  component: ProspectsPage,
})
