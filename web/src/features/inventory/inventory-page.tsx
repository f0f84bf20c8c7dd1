import { messages } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { Suspense, useState } from 'react'
import { openHouseLimitReached } from '../../ui/action-bar.tsx'
import { Link } from '../../ui/Link.tsx'
import type { ListView } from '../../ui/list-toolbar.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { InventoryList } from './inventory-list.tsx'
import './inventory.css'
import '../../ui/card-list.css'

/** SPEC /reinventory: the agent's property inventory. */
export function InventoryPage() {
  useDocumentTitle('My Inventory')
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const [view, setView] = useState<ListView>('grid')
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(agentId))
  return (
    <section className="page open-houses" aria-labelledby="inventory-title">
      <header className="open-houses__header">
        <div>
          <h1 id="inventory-title">My Inventory</h1>
          <p className="lede">The properties you can schedule open houses for.</p>
        </div>
        <nav className="action-bar" aria-label="Actions">
          <Link to="/reinventory/new" variant="button-primary">
            Add Property To My Inventory
          </Link>
        </nav>
      </header>
      <Suspense fallback={<Spinner label="Loading your inventory…" />}>
        <InventoryList
          agentId={agentId}
          view={view}
          onViewChange={setView}
          scheduleBlockedReason={
            openHouseLimitReached(utilization) ? messages.upgradePlanToCreateOpenHouses : null
          }
        />
      </Suspense>
    </section>
  )
}
