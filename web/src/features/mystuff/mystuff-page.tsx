import { getRouteApi } from '@tanstack/react-router'
import { Suspense } from 'react'
import { Spinner } from '../../ui/Spinner.tsx'
import { Tab, TabList, TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { AgentProfile } from '../agents/agent-profile.tsx'
import { useDocumentTitle } from '../layout/use-document-title.ts'
import { MyPlan } from '../pricing/my-plan.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { MY_STUFF_SECTIONS } from './sections.ts'
import './mystuff.css'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/')

/** SPEC /mystuff: tabs 'My Real Estate Profile' and 'My Pricing Plan', chosen by ?activeSection=. */
export function MyStuffPage() {
  useDocumentTitle('My Stuff')
  const { activeSection = 'myProfile' } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { agent } = useSessionInfo()
  if (!agent) return null

  return (
    <section className="page" aria-labelledby="mystuff-title">
      <h1 id="mystuff-title" className="mystuff__title">
        My Stuff
      </h1>
      <Tabs
        selectedKey={activeSection}
        onSelectionChange={(key) => {
          const section = MY_STUFF_SECTIONS.find((s) => s === key)
          if (section) void navigate({ search: { activeSection: section }, replace: true })
        }}
      >
        <TabList aria-label="My Stuff">
          <Tab id="myProfile">My Real Estate Profile</Tab>
          <Tab id="myPricingPlan">My Pricing Plan</Tab>
        </TabList>
        <TabPanel id="myProfile" className="card mystuff__panel">
          <AgentProfile reAgentId={agent.id} />
        </TabPanel>
        <TabPanel id="myPricingPlan" className="card mystuff__panel">
          <Suspense fallback={<Spinner label="Loading your pricing plan…" />}>
            <MyPlan reAgentId={agent.id} />
          </Suspense>
        </TabPanel>
      </Tabs>
    </section>
  )
}
