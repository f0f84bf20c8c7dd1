import { createFileRoute } from '@tanstack/react-router'
import { CancelOpenHousePage } from '../../../../../features/open-houses/cancel-page.tsx'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'

/** SPEC /openhouses/schedule/{openHouseId}/cancel: the cancellation reason form. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/$openHouseId/cancel')({
  params: openHouseIdParams,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: CancelOpenHousePage,
})
