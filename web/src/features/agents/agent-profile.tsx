import type { Agent } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { formatDate } from '../../ui/format.ts'
import { Link } from '../../ui/Link.tsx'
import { FirmMembership } from './firm-membership.tsx'
import { agentQueryOptions } from './queries.ts'
import './agents.css'

/**
 * The 'My Real Estate Profile' tab: the agent's details, its firm membership, Edit and Change Password
 * (SPEC §2).
 */
export function AgentProfile({ reAgentId }: { reAgentId: number }) {
  const { data: agent } = useSuspenseQuery(agentQueryOptions(reAgentId))
  const fullName = [agent.reAgentFirstName, agent.reAgentMiddleName, agent.reAgentLastName]
    .filter(Boolean)
    .join(' ')
  const details: Array<[string, string]> = [
    ['Email Id', agent.reAgentEmailId],
    ['Phone', `${agent.reAgentPhoneNumber} (${agent.reAgentPhoneCountryCode})`],
    ['Role', agent.reAgentRole],
    ...(agent.requestedRole && agent.requestedRole !== agent.reAgentRole
      ? ([
          ['Requested Role', `${agent.requestedRole} (a verified Team Lead of your firm grants it)`],
        ] as Array<[string, string]>)
      : []),
    ['Licensed State', agent.reAgentLicensedState ?? '—'],
    ['License Number', agent.reAgentLicenseNumber ?? '—'],
    ['Broker Firm Name', agent.reAgentBrokerFirmName],
    ['Broker Firm License', agent.reAgentBrokerFirmLicense],
    ['Firm Name', agent.reAgentFirmName ?? '—'],
    ['Date of Birth', formatDate(agent.reAgentDateOfBirth)],
    ['Residence Zip Code', agent.reAgentResidenceZipCode ?? '—'],
  ]

  return (
    <div className="profile">
      <div className="profile__header">
        <div>
          <h2 className="profile__name">{fullName}</h2>
          <p className="profile__meta">
            {agent.reAgentRole} · {agent.reAgentBrokerFirmName}
          </p>
        </div>
        <LicenseStatus agent={agent} />
      </div>
      <FirmMembership agent={agent} />
      <dl className="details">
        {details.map(([label, value]) => (
          <div key={label} className="details__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="profile__actions">
        <Link to="/mystuff/$reAgentId/edit" params={{ reAgentId: agent.id }} variant="button-primary">
          Edit
        </Link>
        <Link to="/mystuff/changeUserPass" variant="button-secondary">
          Change Password
        </Link>
      </div>
    </div>
  )
}

function LicenseStatus({ agent }: { agent: Agent }) {
  return agent.reAgentLicenseValidityFlag ? (
    <span className="status status--ok">License valid</span>
  ) : (
    <span className="status status--bad">License not valid</span>
  )
}
