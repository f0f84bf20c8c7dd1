import { useSuspenseQuery } from '@tanstack/react-query'
import { useDocumentTitle } from '../layout/use-document-title.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { ActionBar } from './action-bar.tsx'
import './dashboard.css'

/** /dashboard for now: the greeting and the action bar; statistics and teams come with their APIs. */
export function DashboardPage() {
  useDocumentTitle('Dashboard')
  const { agent } = useSessionInfo()
  const reAgentId = agent?.id ?? 0
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(reAgentId))

  return (
    <section className="page dashboard" aria-labelledby="dashboard-title">
      <header className="dashboard__header">
        <div>
          <h1 id="dashboard-title">Dashboard</h1>
          <p className="lede">Welcome, {agent?.reAgentFirstName}! Here is where your open houses stand.</p>
        </div>
        <ActionBar to="/dashboard/property" utilization={utilization} />
      </header>
      <p className="empty-state">
        Your open house summary will show here. Schedule an open house to get started.
      </p>
    </section>
  )
}
