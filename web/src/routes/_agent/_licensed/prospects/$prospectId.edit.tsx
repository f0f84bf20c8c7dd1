import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { ProspectFormPage } from '../../../../features/prospects/prospect-form-page.tsx'
import { prospectDetailsQueryOptions } from '../../../../features/prospects/queries.ts'
import { ProspectOpenHouseSearch, prospectIdParams } from '../../../../features/prospects/search.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects/{prospectId}/edit. */
export const Route = createFileRoute('/_agent/_licensed/prospects/$prospectId/edit')({
  params: prospectIdParams,
  validateSearch: ProspectOpenHouseSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient }, params }) =>
    queryClient.ensureQueryData(prospectDetailsQueryOptions(params.prospectId)),
  component: function EditProspect() {
    const { prospectId } = Route.useParams()
    const { openHouseId, rePropertyId } = Route.useSearch()
    const { data } = useSuspenseQuery(prospectDetailsQueryOptions(prospectId))
    return (
      <ProspectFormPage key={data.id} prospect={data} openHouseId={openHouseId} rePropertyId={rePropertyId} />
    )
  },
})
