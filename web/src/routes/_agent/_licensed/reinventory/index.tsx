import { createFileRoute } from '@tanstack/react-router'
import { InventoryPage } from '../../../../features/inventory/inventory-page.tsx'
import { inventoryQueryOptions } from '../../../../features/inventory/queries.ts'
import { planUtilizationQueryOptions } from '../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /reinventory: the agent's property inventory. */
export const Route = createFileRoute('/_agent/_licensed/reinventory/')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent } }) =>
    Promise.all([
      queryClient.ensureQueryData(inventoryQueryOptions(agent.id)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: InventoryPage,
})
