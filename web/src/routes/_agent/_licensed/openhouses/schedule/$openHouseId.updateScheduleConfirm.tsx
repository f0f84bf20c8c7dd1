import { createFileRoute } from '@tanstack/react-router'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'
import { UpdateScheduleConfirmPage } from '../../../../../features/open-houses/update-schedule-confirm-page.tsx'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'

/** SPEC /openhouses/schedule/{openHouseId}/updateScheduleConfirm. */
export const Route = createFileRoute(
  '/_agent/_licensed/openhouses/schedule/$openHouseId/updateScheduleConfirm',
)({
  params: openHouseIdParams,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: UpdateScheduleConfirmPage,
})
