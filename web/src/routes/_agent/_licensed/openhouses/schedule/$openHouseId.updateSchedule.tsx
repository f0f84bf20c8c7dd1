import { createFileRoute } from '@tanstack/react-router'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'
import { UpdateSchedulePage } from '../../../../../features/open-houses/update-schedule-page.tsx'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'

/** SPEC /openhouses/schedule/{openHouseId}/updateSchedule: fix a flexible date or time and claim. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/$openHouseId/updateSchedule')({
  params: openHouseIdParams,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: UpdateSchedulePage,
})
