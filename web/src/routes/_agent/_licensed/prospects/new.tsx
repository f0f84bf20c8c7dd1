import { createFileRoute } from '@tanstack/react-router'
import { ProspectFormPage } from '../../../../features/prospects/prospect-form-page.tsx'
import { ProspectOpenHouseSearch } from '../../../../features/prospects/search.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects/new (?openHouseId=&rePropertyId= when adding to an open house). */
export const Route = createFileRoute('/_agent/_licensed/prospects/new')({
  validateSearch: ProspectOpenHouseSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  component: function NewProspect() {
    const { openHouseId, rePropertyId } = Route.useSearch()
    return <ProspectFormPage openHouseId={openHouseId} rePropertyId={rePropertyId} />
  },
})
