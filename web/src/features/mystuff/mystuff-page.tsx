import { canManageMyTeams } from '@porchlight/shared'
import { getRouteApi } from '@tanstack/react-router'
import { Suspense } from 'react'
import { Spinner } from '../../ui/Spinner.tsx'
import { Tab, TabList, TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { AgentProfile } from '../agents/agent-profile.tsx'
import { useDocumentTitle } from '../layout/use-document-title.ts'
import { MyPlan } from '../pricing/my-plan.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { MyTeams } from '../teams/my-teams.tsx'
import { MY_STUFF_SECTIONS } from './sections.ts'
import './mystuff.css'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/')

/**
 * SPEC /mystuff: tabs 'My Real Estate Profile', 'Manage My Teams' (Team Lead only, SPEC §6) and
 * 'My Pricing Plan', chosen by ?activeSection=.
 */
export function MyStuffPage() {
  useDocumentTitle('My Stuff')
  const { activeSection = 'myProfile' } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { agent, activePlan } = useSessionInfo()
  if (!agent) return null
  const managesTeams = canManageMyTeams(agent.reAgentRole)
  const section = !managesTeams && activeSection === 'manageMyTeams' ? 'myProfile' : activeSection

  return (
    <section className="page" aria-labelledby="mystuff-title">
      <h1 id="mystuff-title" className="mystuff__title">
        My Stuff
      </h1>
      <Tabs
        selectedKey={section}
        onSelectionChange={(key) => {
          const next = MY_STUFF_SECTIONS.find((s) => s === key)
          if (next) void navigate({ search: { activeSection: next }, replace: true })
        }}
      >
        <TabList aria-label="My Stuff">
          <Tab id="myProfile">My Real Estate Profile</Tab>
          {managesTeams && <Tab id="manageMyTeams">Manage My Teams</Tab>}
          <Tab id="myPricingPlan">My Pricing Plan</Tab>
        </TabList>
        <TabPanel id="myProfile" className="card mystuff__panel">
          <AgentProfile reAgentId={agent.id} />
        </TabPanel>
        {managesTeams && (
          <TabPanel id="manageMyTeams" className="card mystuff__panel">
            <Suspense fallback={<Spinner label="Loading your teams…" />}>
              <MyTeams reAgentId={agent.id} hasActivePlan={Boolean(activePlan)} />
            </Suspense>
          </TabPanel>
        )}
        <TabPanel id="myPricingPlan" className="card mystuff__panel">
          <Suspense fallback={<Spinner label="Loading your pricing plan…" />}>
            <MyPlan reAgentId={agent.id} />
          </Suspense>
        </TabPanel>
      </Tabs>
    </section>
  )
}
