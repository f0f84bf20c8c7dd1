import type { TeamLeadDetails } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { formatDate } from '../../ui/format.ts'
import { ModalDialog } from '../../ui/Modal.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { teamDetailsQueryOptions } from './queries.ts'
import { TeamStatus } from './team-status.tsx'

const person = (p: TeamLeadDetails) => (
  <>
    {p.reAgentFirstName} {p.reAgentLastName}
    <br />
    <a className="link link--inline" href={`mailto:${p.reAgentEmailId}`}>
      {p.reAgentEmailId}
    </a>
    <br />
    {p.reAgentPhoneNumber}
  </>
)

/** SPEC §2 "Modals: team details": the team, its lead (with the broker firm) and co-lead. */
export function TeamDetailsDialog({
  teamId,
  teamName,
  onClose,
}: {
  teamId: number | null
  teamName?: string
  onClose: () => void
}) {
  return (
    <ModalDialog
      isOpen={teamId !== null}
      onOpenChange={(open) => !open && onClose()}
      title={teamName ?? 'Team details'}
      size="lg"
    >
      {teamId !== null && <DetailsBody teamId={teamId} />}
    </ModalDialog>
  )
}

function DetailsBody({ teamId }: { teamId: number }) {
  const details = useQuery(teamDetailsQueryOptions(teamId))
  if (details.isPending) return <Spinner label="Loading the team details…" />
  if (details.isError) {
    return (
      <Alert
        tone="error"
        title={errorMessage(details.error, "Couldn't load the team details.")}
        actions={<Button onPress={() => void details.refetch()}>Try again</Button>}
      />
    )
  }
  const { reTeam, reAgentTeamLeadDetails: lead, reAgentCoTeamLeadDetails: coLead } = details.data
  const rows: Array<[string, ReactNode]> = [
    ['Team Type', reTeam.teamType],
    ['Status', <TeamStatus key="status" active={reTeam.reTeamActiveFlag} />],
    ['Team Lead', person(lead)],
    ['Co-Team Lead', coLead ? person(coLead) : 'None'],
    ['Broker Firm', lead.reAgentBrokerFirmName],
    ['Created', formatDate(reTeam.createdDate)],
  ]
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div key={label} className="details__item">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
