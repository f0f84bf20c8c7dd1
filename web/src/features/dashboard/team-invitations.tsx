import type { Team } from '@porchlight/shared'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { cx } from '../../ui/cx.ts'
import { useAnswerTeamInvitationMutation } from '../teams/queries.ts'

// The confirmation loads on first use, like the team details modal (DESIGN.md: agent app ≤ 250 KB).
const ConfirmDialog = lazy(() => import('../../ui/Modal.tsx').then((m) => ({ default: m.ConfirmDialog })))

export type Notice = { tone: 'error' | 'success'; text: string }

interface TeamInvitationsProps {
  agentId: number
  invitations: Team[]
  /** The invitation the mail's link points at (?invitation=): highlighted and focused once. */
  targetId?: number
  onDetails: (team: Team) => void
  /** Word of what happened, shown above the dashboard's team list. */
  onNotice: (notice: Notice) => void
  /** The agent answered the invitation the link pointed at. */
  onTargetAnswered: () => void
}

/**
 * Teams the agent is invited to (by their lead or co-lead): Accept makes it a member, Decline (after a
 * confirmation) turns the invitation down. Until it accepts it sees no team offers and no contact data.
 */
export function TeamInvitations({
  agentId,
  invitations,
  targetId,
  onDetails,
  onNotice,
  onTargetAnswered,
}: TeamInvitationsProps) {
  const answer = useAnswerTeamInvitationMutation(agentId)
  // The team stays named while the dialog fades out; `confirming` opens and closes it.
  const [declining, setDeclining] = useState<Team | null>(null)
  const [confirming, setConfirming] = useState(false)
  const target = useRef<HTMLLIElement>(null)
  const focusedFor = useRef<number | null>(null)
  const targetShown = invitations.some((t) => t.id === targetId)

  // Arriving from the invitation mail: bring that invitation into view and put focus on it, once.
  useEffect(() => {
    if (!targetShown || targetId === undefined || focusedFor.current === targetId) return
    focusedFor.current = targetId
    target.current?.scrollIntoView({ block: 'center' })
    target.current?.focus({ preventScroll: true })
  }, [targetShown, targetId])

  const respond = (team: Team, accept: boolean) =>
    answer.mutate(
      { reTeamId: team.id, accept },
      {
        onSuccess: () => {
          setConfirming(false)
          onNotice({
            tone: 'success',
            text: accept
              ? `You joined ${team.reTeamName}. Its open house offers now reach you.`
              : `You declined the invitation to ${team.reTeamName}.`,
          })
          if (team.id === targetId) onTargetAnswered()
        },
        onError: (error) => {
          setConfirming(false)
          onNotice({
            tone: 'error',
            text: errorMessage(
              error,
              `Couldn't ${accept ? 'accept' : 'decline'} the invitation to ${team.reTeamName}. Please try again.`,
            ),
          })
        },
      },
    )

  const busyWith = (team: Team) => answer.isPending && answer.variables?.reTeamId === team.id

  return (
    <div className="dashboard-invitations">
      <h3 id="dashboard-invitations-title">Team invitations</h3>
      <ul className="dashboard-teams" aria-labelledby="dashboard-invitations-title">
        {invitations.map((team) => {
          const isTarget = team.id === targetId
          return (
            <li
              key={team.id}
              ref={isTarget ? target : undefined}
              tabIndex={isTarget ? -1 : undefined}
              aria-label={`Invitation to ${team.reTeamName}`}
              className={cx(
                'card dashboard-teams__item dashboard-invitation',
                isTarget && 'dashboard-invitation--target',
              )}
            >
              <div className="dashboard-teams__text">
                {isTarget && <p className="dashboard-invitation__from">From your invitation email</p>}
                <h4>{team.reTeamName}</h4>
                <p className="dashboard-teams__meta">{team.teamType} · You are invited to join this team</p>
              </div>
              <span className="status status--invited">Invited</span>
              <div className="dashboard-invitation__actions">
                <Button
                  size="sm"
                  onPress={() => onDetails(team)}
                  aria-label={`Team details of ${team.reTeamName}`}
                >
                  Details
                </Button>
                <Button
                  size="sm"
                  variant="primary"
                  onPress={() => respond(team, true)}
                  isPending={busyWith(team) && answer.variables?.accept}
                  isDisabled={busyWith(team)}
                  aria-label={`Accept the invitation to ${team.reTeamName}`}
                >
                  Accept
                </Button>
                <Button
                  size="sm"
                  onPress={() => {
                    setDeclining(team)
                    setConfirming(true)
                  }}
                  isDisabled={busyWith(team)}
                  aria-label={`Decline the invitation to ${team.reTeamName}`}
                >
                  Decline
                </Button>
              </div>
            </li>
          )
        })}
      </ul>
      {declining && (
        <Suspense fallback={null}>
          <ConfirmDialog
            isOpen={confirming}
            onOpenChange={setConfirming}
            title={`Decline the invitation to ${declining.reTeamName}?`}
            confirmLabel="Yes, decline"
            onConfirm={() => respond(declining, false)}
            isPending={answer.isPending}
          >
            <p>You will not join {declining.reTeamName}. Its lead can invite you again later.</p>
          </ConfirmDialog>
        </Suspense>
      )}
    </div>
  )
}

/** The link's invitation is not open any more: say why, without guessing more than the list tells. */
export function InvitationGone({ joined, onDismiss }: { joined?: Team; onDismiss: () => void }) {
  return (
    <Alert
      tone="info"
      title={
        joined
          ? `You are already a member of ${joined.reTeamName}.`
          : 'This team invitation is no longer open. It may have been withdrawn, or you already answered it.'
      }
      actions={
        <Button size="sm" onPress={onDismiss}>
          Dismiss
        </Button>
      }
    />
  )
}
