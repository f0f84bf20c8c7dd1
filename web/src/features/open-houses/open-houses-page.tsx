import { messages } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { type ReactNode, Suspense, useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { ActionBar, openHouseLimitReached } from '../../ui/action-bar.tsx'
import { Link } from '../../ui/Link.tsx'
import type { ListView } from '../../ui/list-toolbar.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { Tab, TabList, TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { InventoryList } from '../inventory/inventory-list.tsx'
import { OpenHouseMapLink } from '../maps/open-house-map-link.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { OpenHouseListView } from './open-house-list.tsx'
import { canSearchOpenHouses, OPEN_HOUSE_SECTIONS } from './sections.ts'
import '../../ui/card-list.css'
import './open-houses.css'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/')

/**
 * SPEC /openhouses: My Inventory, My Upcoming Open Houses, Search Open Houses (not for Team Lead) and
 * Past Open Houses, chosen by ?activeSection=. Every list stays live through the agent's socket.
 */
export function OpenHousesPage() {
  useDocumentTitle('Open Houses')
  const { agent } = useSessionInfo()
  const { activeSection = 'upcomingOH', openHouseId: invitedId } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const [view, setView] = useState<ListView>('grid')
  // One current message on the screen: word left by the previous screen shows until the agent moves
  // to another tab or an action of this screen has word of its own (issue 32: alerts stacked).
  const arrived = useFlash()
  const [flash, setPageFlash] = useState(arrived)
  const agentId = agent?.id ?? 0
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(agentId))
  if (!agent) return null
  const canSearch = canSearchOpenHouses(agent.reAgentRole)
  const section = !canSearch && activeSection === 'searchOH' ? 'upcomingOH' : activeSection
  const blocked = openHouseLimitReached(utilization) ? messages.upgradePlanToCreateOpenHouses : null
  const listProps = { agentId, view, onViewChange: setView, onMessage: () => setPageFlash(null) }

  return (
    <section className="page open-houses" aria-labelledby="open-houses-title">
      <header className="open-houses__header">
        <div>
          <h1 id="open-houses-title">Open Houses</h1>
          <p className="lede">
            Your properties, the open houses you list or host, and opportunities to claim.
          </p>
          <OpenHouseMapLink />
        </div>
        <ActionBar to="/openhouses/property" utilization={utilization} />
      </header>
      {flash && <Alert tone="success" title={flash} />}
      <Tabs
        selectedKey={section}
        onSelectionChange={(key) => {
          const next = OPEN_HOUSE_SECTIONS.find((s) => s === key)
          if (next) setPageFlash(null)
          if (next) void navigate({ search: { activeSection: next }, replace: true })
        }}
      >
        <TabList aria-label="Open Houses">
          <Tab id="reInventory">My Inventory</Tab>
          <Tab id="upcomingOH">My Upcoming Open Houses</Tab>
          {canSearch && <Tab id="searchOH">Search Open Houses</Tab>}
          <Tab id="pastOH">Past Open Houses</Tab>
        </TabList>
        <TabPanel id="reInventory">
          <Loading label="Loading your inventory…">
            <InventoryList {...listProps} scheduleBlockedReason={blocked} />
          </Loading>
        </TabPanel>
        <TabPanel id="upcomingOH">
          <Loading label="Loading your upcoming open houses…">
            <OpenHouseListView
              {...listProps}
              list="upcoming"
              label="My Upcoming Open Houses"
              empty={
                <>
                  <p>You have no upcoming open houses. Schedule one for a property in your inventory.</p>
                  <p className="empty-state__action">
                    <Link
                      to="/openhouses"
                      search={{ activeSection: 'reInventory' }}
                      variant="button-secondary"
                    >
                      Go to My Inventory
                    </Link>
                  </p>
                </>
              }
            />
          </Loading>
        </TabPanel>
        {canSearch && (
          <TabPanel id="searchOH">
            <Loading label="Loading open houses to host…">
              <OpenHouseListView
                {...listProps}
                list="available"
                focusId={invitedId}
                label="Open houses available to host"
                empty={
                  <p>
                    No open houses are offered to you right now. New opportunities appear here as soon as they
                    are published; keep this tab open.
                  </p>
                }
              />
            </Loading>
          </TabPanel>
        )}
        <TabPanel id="pastOH">
          <Loading label="Loading your past open houses…">
            <OpenHouseListView
              {...listProps}
              list="past"
              label="Past Open Houses"
              empty={
                <p>No past open houses yet. Open houses you list or host move here once their day is over.</p>
              }
            />
          </Loading>
        </TabPanel>
      </Tabs>
    </section>
  )
}

function Loading({ label, children }: { label: string; children: ReactNode }) {
  return <Suspense fallback={<Spinner label={label} />}>{children}</Suspense>
}
