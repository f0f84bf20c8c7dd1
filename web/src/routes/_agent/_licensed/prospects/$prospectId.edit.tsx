import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, notFound } from '@tanstack/react-router'
import { ProspectFormPage } from '../../../../features/prospects/prospect-form-page.tsx'
import { prospectDetailsQueryOptions } from '../../../../features/prospects/queries.ts'
import { ProspectOpenHouseSearch, prospectIdParams } from '../../../../features/prospects/search.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects/{prospectId}/edit. */
export const Route = createFileRoute('/_agent/_licensed/prospects/$prospectId/edit')({
  params: prospectIdParams,
  validateSearch: ProspectOpenHouseSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  // Only the agent's own prospect is edited; a guest of its open house who is another agent's lead is not.
  loader: async ({ context: { queryClient }, params }) => {
    const prospect = await queryClient.ensureQueryData(prospectDetailsQueryOptions(params.prospectId))
    if (!prospect.ownProspect) throw notFound()
  },
  component: function EditProspect() {
    const { prospectId } = Route.useParams()
    const { openHouseId, rePropertyId } = Route.useSearch()
    const { data } = useSuspenseQuery(prospectDetailsQueryOptions(prospectId))
    return (
      <ProspectFormPage key={data.id} prospect={data} openHouseId={openHouseId} rePropertyId={rePropertyId} />
    )
  },
})
