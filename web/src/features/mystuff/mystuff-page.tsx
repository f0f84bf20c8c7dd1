import { canManageMyTeams, isSchedulerRole } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { Tab, TabList, TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AgentProfile } from '../agents/agent-profile.tsx'
import { FirmMembers } from '../agents/firm-members.tsx'
import { agentQueryOptions, firmAgentsQueryOptions } from '../agents/queries.ts'
import { CalendarFeedSection } from '../calendar-feed/calendar-feed-section.tsx'
import { NotificationsSection } from '../notifications/notifications-section.tsx'
import { MyPlan } from '../pricing/my-plan.tsx'
import { useFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { MyTeams } from '../teams/my-teams.tsx'
import { IntegrationsSection } from '../webhooks/integrations-section.tsx'
import { MY_STUFF_SECTIONS } from './sections.ts'
import './mystuff.css'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/')

/**
 * SPEC /mystuff: tabs 'My Real Estate Profile', 'Manage My Teams' (Team Lead only, SPEC §6), 'Firm
 * Members' (a verified Team Lead or Admin Team Member decides who joins the firm) and 'My Pricing Plan',
 * chosen by ?activeSection=.
 */
export function MyStuffPage() {
  useDocumentTitle('My Stuff')
  // Word left by the previous screen shows until the agent moves to another tab (one message at a time).
  const arrived = useFlash()
  const [flash, setPageFlash] = useState(arrived)
  const { activeSection = 'myProfile' } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { agent: sessionAgent, activePlan } = useSessionInfo()
  // The profile as the server has it now: a firm membership approved since sign-in shows at once.
  const { data: agent } = useSuspenseQuery(agentQueryOptions(sessionAgent?.id ?? 0))
  const firmVerified = agent.firmMembershipStatus === 'verified'
  const managesTeams = canManageMyTeams(agent.reAgentRole)
  const decidesFirm = firmVerified && isSchedulerRole(agent.reAgentRole)
  const waiting = useWaitingCount(agent.reAgentBrokerFirmLicense, decidesFirm)
  const hidden =
    (!managesTeams && activeSection === 'manageMyTeams') || (!decidesFirm && activeSection === 'firmMembers')
  const section = hidden ? 'myProfile' : activeSection

  return (
    <section className="page" aria-labelledby="mystuff-title">
      <h1 id="mystuff-title" className="mystuff__title">
        My Stuff
      </h1>
      {flash && <Alert tone="success" title={flash} />}
      <Tabs
        selectedKey={section}
        onSelectionChange={(key) => {
          const next = MY_STUFF_SECTIONS.find((s) => s === key)
          if (next) setPageFlash(null)
          if (next) void navigate({ search: { activeSection: next }, replace: true })
        }}
      >
        <TabList aria-label="My Stuff">
          <Tab id="myProfile">My Real Estate Profile</Tab>
          {managesTeams && <Tab id="manageMyTeams">Manage My Teams</Tab>}
          {decidesFirm && (
            <Tab id="firmMembers">
              Firm Members
              {waiting > 0 && (
                <span className="mystuff__count">
                  {waiting}
                  <span className="visually-hidden"> waiting for approval</span>
                </span>
              )}
            </Tab>
          )}
          <Tab id="myPricingPlan">My Pricing Plan</Tab>
          <Tab id="integrations">Integrations</Tab>
          <Tab id="notifications">Notifications</Tab>
        </TabList>
        <TabPanel id="myProfile" className="card mystuff__panel">
          <AgentProfile reAgentId={agent.id} />
        </TabPanel>
        {managesTeams && (
          <TabPanel id="manageMyTeams" className="card mystuff__panel">
            <Suspense fallback={<Spinner label="Loading your teams…" />}>
              <MyTeams reAgentId={agent.id} hasActivePlan={Boolean(activePlan)} firmVerified={firmVerified} />
            </Suspense>
          </TabPanel>
        )}
        {decidesFirm && (
          <TabPanel id="firmMembers" className="card mystuff__panel">
            <FirmMembers agent={agent} />
          </TabPanel>
        )}
        <TabPanel id="myPricingPlan" className="card mystuff__panel">
          <Suspense fallback={<Spinner label="Loading your pricing plan…" />}>
            <MyPlan reAgentId={agent.id} />
          </Suspense>
        </TabPanel>
        <TabPanel id="integrations" className="card mystuff__panel">
          <CalendarFeedSection agentId={agent.id} />
          <IntegrationsSection agentId={agent.id} />
        </TabPanel>
        <TabPanel id="notifications" className="card mystuff__panel">
          <NotificationsSection />
        </TabPanel>
      </Tabs>
    </section>
  )
}

/** How many agents wait for the firm's approval, for the tab's badge (the tab itself loads the list). */
function useWaitingCount(license: string, enabled: boolean): number {
  const { data } = useQuery({ ...firmAgentsQueryOptions(license), enabled })
  return data?.filter((m) => m.firmMembershipStatus === 'pending').length ?? 0
}
