import { createFileRoute } from '@tanstack/react-router'
import { ProspectSearchPage } from '../../../../features/prospects/prospect-search-page.tsx'
import { ProspectOpenHouseSearch } from '../../../../features/prospects/search.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /prospects/search?openHouseId=&rePropertyId=: find a prospect to add to the open house. */
export const Route = createFileRoute('/_agent/_licensed/prospects/search')({
  validateSearch: ProspectOpenHouseSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  component: ProspectSearchPage,
})
