import { createFileRoute } from '@tanstack/react-router'
import { InventoryNewPage } from '../../../../features/inventory/inventory-new-page.tsx'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /reinventory/new: 'Add Property To My Inventory'. */
export const Route = createFileRoute('/_agent/_licensed/reinventory/new')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  component: InventoryNewPage,
})
