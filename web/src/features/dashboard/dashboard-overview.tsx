import type { DashboardOverview as Overview } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { FeedbackTrend } from './overview-feedback.tsx'
import { FollowUpsDue, PendingRequests } from './overview-follow-ups.tsx'
import { LeadsThisWeek, NextOpenHouses } from './overview-open-houses.tsx'
import { dashboardOverviewQueryOptions } from './queries.ts'

const OVERVIEW_FAILED = "Couldn't load your week at a glance."

interface SectionProps {
  id: string
  title: string
  /** What the section counts, in a line under its heading. */
  lede: string
  agentId: number
  /** The section's body once the overview is in (the shared query: one request for every section). */
  children: (overview: Overview) => ReactNode
  className?: string
}

/** A card of the overview: its heading and lede at once, then a spinner, an error or its content. */
function OverviewSection({ id, title, lede, agentId, children, className }: SectionProps) {
  const overview = useQuery(dashboardOverviewQueryOptions(agentId))
  return (
    <section className={`card overview-card ${className ?? ''}`} aria-labelledby={id}>
      <header className="overview-card__header">
        <h2 id={id}>{title}</h2>
        <p className="overview-card__lede">{lede}</p>
      </header>
      {overview.isPending ? (
        <Spinner label={`Loading ${title.toLowerCase()}…`} />
      ) : overview.isError ? (
        <Alert
          tone="error"
          title={errorMessage(overview.error, OVERVIEW_FAILED)}
          actions={
            <Button size="sm" onPress={() => void overview.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        children(overview.data)
      )}
    </section>
  )
}

/**
 * The dashboard's "what's next and who came": the open houses of the coming week, this week's leads,
 * what waits for the agent's answer, its follow-ups due and six weeks of feedback. One request feeds
 * every card; socket events refresh it with the statistics (queries.ts).
 */
export function DashboardOverview({ agentId }: { agentId: number }) {
  return (
    <div className="overview">
      <OverviewSection
        id="overview-open-houses-title"
        title="Open houses this week"
        lede="Today and the next 6 days, soonest first: yours to list or to host."
        agentId={agentId}
        className="overview-card--wide"
      >
        {(o) => <NextOpenHouses agentId={agentId} list={o.nextOpenHouses} />}
      </OverviewSection>
      <OverviewSection
        id="overview-leads-title"
        title="Leads this week"
        lede="Guests who signed in at your open houses in the last 7 days."
        agentId={agentId}
      >
        {(o) => <LeadsThisWeek leads={o.leadsThisWeek} />}
      </OverviewSection>
      <OverviewSection
        id="overview-requests-title"
        title="Waiting for you"
        lede="Requests that need your answer."
        agentId={agentId}
      >
        {(o) => <PendingRequests requests={o.pendingRequests} />}
      </OverviewSection>
      <OverviewSection
        id="overview-follow-ups-title"
        title="Follow-ups due"
        lede="Prospects to contact: overdue, or due in the next 7 days."
        agentId={agentId}
      >
        {(o) => <FollowUpsDue list={o.followUpsDue} />}
      </OverviewSection>
      <OverviewSection
        id="overview-feedback-title"
        title="Feedback trend"
        lede="Feedback on your open houses, week by week over the last 6 weeks."
        agentId={agentId}
        className="overview-card--wide"
      >
        {(o) => <FeedbackTrend weeks={o.feedbackTrend} />}
      </OverviewSection>
    </div>
  )
}
