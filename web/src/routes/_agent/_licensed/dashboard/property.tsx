import { createFileRoute } from '@tanstack/react-router'
import { PropertyPage } from '../../../../features/inventory/property-page.tsx'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC §2: the dashboard action bar's Schedule Open House (relative route "property"). */
export const Route = createFileRoute('/_agent/_licensed/dashboard/property')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  component: () => <PropertyPage from="/dashboard" />,
})
