import type { Agent, FirmMembershipStatus } from '@porchlight/shared'

const labels: Record<FirmMembershipStatus, { text: string; tone: string }> = {
  verified: { text: 'Verified', tone: 'status--ok' },
  pending: { text: 'Pending', tone: 'status--waiting' },
  declined: { text: 'Declined', tone: 'status--bad' },
}

/** A firm membership status in words plus colour (DESIGN.md "Look and feel"). */
export function FirmStatusBadge({ status, prefix }: { status: FirmMembershipStatus; prefix?: string }) {
  const { text, tone } = labels[status]
  return (
    <span className={`status ${tone}`}>
      {prefix}
      {text}
    </span>
  )
}

/**
 * The agent's own firm membership on its profile: what it means and, while it is not verified, who can
 * change it. Until verified the agent gets no firm roster, no Market Center offers and no teams.
 */
export function FirmMembership({ agent }: { agent: Agent }) {
  const firm = agent.reAgentBrokerFirmName
  const status = agent.firmMembershipStatus
  return (
    <div className={`firm-membership firm-membership--${status}`}>
      <FirmStatusBadge status={status} prefix="Firm membership: " />
      <p className="firm-membership__text">
        {status === 'verified' &&
          `You are a verified member of ${firm}: you see its agents and Market Center offers and can join its teams.`}
        {status === 'pending' &&
          `A verified Team Lead or Admin Team Member of ${firm} can approve it. Until then you don't see your firm's agents or Market Center offers, and you can't create or join teams.`}
        {status === 'declined' &&
          `A Team Lead or Admin Team Member of ${firm} declined it. If that is a mistake, ask them to approve you, or check your broker firm license (${agent.reAgentBrokerFirmLicense}).`}
      </p>
    </div>
  )
}
