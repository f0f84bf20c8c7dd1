import { createFileRoute } from '@tanstack/react-router'
import { inventoryQueryOptions } from '../../../../features/inventory/queries.ts'
import { OpenHousesPage } from '../../../../features/open-houses/open-houses-page.tsx'
import { openHouseListQueryOptions } from '../../../../features/open-houses/queries.ts'
import { canSearchOpenHouses, OpenHousesSearch } from '../../../../features/open-houses/sections.ts'
import { planUtilizationQueryOptions } from '../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC §2: the route loads upcoming, available-to-host and past open houses and the inventory. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/')({
  validateSearch: OpenHousesSearch,
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: async ({ context: { queryClient, agent } }) => {
    await Promise.all([
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
      queryClient.ensureQueryData(inventoryQueryOptions(agent.id)),
      queryClient.ensureQueryData(openHouseListQueryOptions('upcoming', agent.id)),
      queryClient.ensureQueryData(openHouseListQueryOptions('past', agent.id)),
      canSearchOpenHouses(agent.reAgentRole)
        ? queryClient.ensureQueryData(openHouseListQueryOptions('available', agent.id))
        : null,
    ])
  },
  component: OpenHousesPage,
})
