import { createFileRoute } from '@tanstack/react-router'
import { propertyQueryOptions } from '../../../../../features/inventory/queries.ts'
import { NewSchedulePage } from '../../../../../features/open-houses/schedule-routes.tsx'
import { NewScheduleSearch } from '../../../../../features/open-houses/schedule-search.ts'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'

/** SPEC /openhouses/schedule?rePropertyId=&fromPage=REInventoryView&reInventoryId=: a new schedule. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/')({
  validateSearch: NewScheduleSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loaderDeps: ({ search }) => ({ rePropertyId: search.rePropertyId }),
  loader: ({ context: { queryClient, agent }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(propertyQueryOptions(deps.rePropertyId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: NewSchedulePage,
})
