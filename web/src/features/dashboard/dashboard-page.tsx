import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { ActionBar } from '../../ui/action-bar.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { EnableNotifications } from '../notifications/enable-notifications.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { AgentTeams } from './agent-teams.tsx'
import { DashboardOverview } from './dashboard-overview.tsx'
import { DashboardStatistics } from './dashboard-statistics.tsx'
import { FubBanner } from './fub-banner.tsx'
import './dashboard.css'

const routeApi = getRouteApi('/_agent/_licensed/dashboard/')

/**
 * /dashboard: the greeting and action bar, the week at a glance (what's next and who came), the
 * statistics summary (live) and the agent's teams. The
 * action bar shows at once; each section loads on its own with its own spinner. ?invitation={teamId}
 * (the team invitation mail's link) points the teams section at that invitation.
 */
export function DashboardPage() {
  useDocumentTitle('Dashboard')
  const { agent } = useSessionInfo()
  const reAgentId = agent?.id ?? 0
  const role = agent?.reAgentRole ?? ''
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(reAgentId))
  const { invitation } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  // Once first, the teams stay first while the page is open: the word on the answer shows where it
  // was given, not at the foot of the page.
  const [invitationFirst, setInvitationFirst] = useState(invitation !== undefined)
  if (invitation !== undefined && !invitationFirst) setInvitationFirst(true)
  const teams = (
    <AgentTeams
      agentId={reAgentId}
      role={role}
      invitationId={invitation}
      onInvitationDone={() => void navigate({ search: {}, replace: true })}
    />
  )

  return (
    <section className="page dashboard" aria-labelledby="dashboard-title">
      <header className="dashboard__header">
        <div>
          <h1 id="dashboard-title">Dashboard</h1>
          <p className="lede">Welcome, {agent?.reAgentFirstName}! Here is where your open houses stand.</p>
        </div>
        <ActionBar to="/dashboard/property" utilization={utilization} />
      </header>
      {/* From an invitation (the mail's link or Answer): the invitation comes first, its Accept and
          Decline on the first screen of a phone, not below sections still loading above it. */}
      <FubBanner />
      {invitationFirst && teams}
      <EnableNotifications />
      <DashboardOverview agentId={reAgentId} />
      <DashboardStatistics agentId={reAgentId} role={role} />
      {!invitationFirst && teams}
    </section>
  )
}
