import type { Agent, FirmMembershipStatus } from '@porchlight/shared'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { useAskFirmVerificationMutation } from './queries.ts'

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
 * The first agent of a firm has nobody in it who could verify it: it asks the Porchlight operator, at
 * most once a day (the server says so when asked again).
 */
function AskOperator() {
  const ask = useAskFirmVerificationMutation()
  return (
    <div className="firm-membership__ask">
      <p className="firm-membership__text">
        Nobody at your firm on Porchlight yet, or nobody answering? Ask the Porchlight team to verify you.
      </p>
      <Button
        variant="secondary"
        onPress={() => ask.mutate()}
        isPending={ask.isPending}
        isDisabled={ask.isSuccess}
      >
        Ask Porchlight to verify me
      </Button>
      {ask.isSuccess && <Alert tone="success" title={ask.data.message} />}
      {ask.isError && (
        <Alert
          tone="error"
          title={errorMessage(ask.error, 'Your request could not be sent. Please try again.')}
        />
      )}
    </div>
  )
}

/**
 * The agent's own firm membership on its profile: what it means and, while it is not verified, who can
 * change it (and a way to ask the operator). Until verified the agent gets no firm roster, no Market
 * Center offers and no teams.
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
      {status !== 'verified' && <AskOperator />}
    </div>
  )
}
