import { createFileRoute } from '@tanstack/react-router'
import { PublishConfirmPage } from '../../../../../features/open-houses/publish-confirm-page.tsx'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { ConfirmSearch, openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'
import { planUtilizationQueryOptions } from '../../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../../features/session/queries.ts'

/** SPEC /openhouses/schedule/{openHouseId}/confirm?rePropertyId=&reAgentId=&publish=&method=: publish now or later. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/$openHouseId/confirm')({
  params: openHouseIdParams,
  validateSearch: ConfirmSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: PublishConfirmPage,
})
