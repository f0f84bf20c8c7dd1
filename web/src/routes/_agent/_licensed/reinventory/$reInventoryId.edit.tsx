import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { InventoryEditPage } from '../../../../features/inventory/inventory-edit-page.tsx'
import { inventoryItemQueryOptions } from '../../../../features/inventory/queries.ts'
import { planUtilizationQueryOptions } from '../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /reinventory/{reInventoryId}/edit: 'Update Property Status'. */
export const Route = createFileRoute('/_agent/_licensed/reinventory/$reInventoryId/edit')({
  params: {
    parse: ({ reInventoryId }) => ({ reInventoryId: Id.parse(reInventoryId) }),
    stringify: ({ reInventoryId }) => ({ reInventoryId: String(reInventoryId) }),
  },
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(inventoryItemQueryOptions(params.reInventoryId)),
      queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id)),
    ]),
  component: InventoryEditPage,
})
