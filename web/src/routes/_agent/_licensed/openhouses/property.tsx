import { createFileRoute } from '@tanstack/react-router'
import { PropertyPage } from '../../../../features/inventory/property-page.tsx'
import { requireAgent } from '../../../../features/session/queries.ts'

/** SPEC /openhouses/property: the add-property action of the open houses action bar. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/property')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  component: () => <PropertyPage from="/openhouses" />,
})
