import { AGENT_ROLES, type Agent, type AgentRole, type FirmMember } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { formatDate } from '../../ui/format.ts'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { FirmStatusBadge } from './firm-membership.tsx'
import { firmAgentsQueryOptions, useDecideFirmMemberMutation, useGrantFirmRoleMutation } from './queries.ts'
import './agents.css'

const nameOf = (m: FirmMember) =>
  [m.reAgentFirstName, m.reAgentMiddleName, m.reAgentLastName].filter(Boolean).join(' ')

type Notice = { tone: 'error' | 'success'; text: string }

/**
 * The 'Firm Members' tab of a verified Team Lead or Admin Team Member: the agents asking to join its
 * broker firm (Approve, or Decline after a confirmation), then the verified members by name with the role
 * each holds and asked for (a Team Lead grants and revokes roles there), then the requests it declined
 * (which it can still approve).
 */
export function FirmMembers({ agent }: { agent: Agent }) {
  const license = agent.reAgentBrokerFirmLicense
  const firm = agent.reAgentBrokerFirmName
  const roster = useQuery(firmAgentsQueryOptions(license))
  const decide = useDecideFirmMemberMutation(license)
  const grantRole = useGrantFirmRoleMutation(license)
  const grants = agent.reAgentRole === 'Team Lead' && agent.firmMembershipStatus === 'verified'
  const [notice, setNotice] = useState<Notice | null>(null)
  // The agent stays named while the dialog fades out; `confirming` opens and closes it.
  const [declining, setDeclining] = useState<FirmMember | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [refreshing, setRefreshing] = useState(false)

  const refresh = async () => {
    setRefreshing(true)
    try {
      await roster.refetch()
    } finally {
      setRefreshing(false)
    }
  }

  const approve = (member: FirmMember) => {
    const name = nameOf(member)
    setNotice(null)
    decide.mutate(
      { reAgentId: member.id, approve: true, currentStatus: member.firmMembershipStatus },
      {
        onSuccess: () =>
          setNotice({
            tone: 'success',
            text: `${name} is now a verified member of ${firm}. We emailed them the news.`,
          }),
        onError: (error) =>
          setNotice({
            tone: 'error',
            text: errorMessage(error, `Couldn't approve ${name}. Please try again.`),
          }),
      },
    )
  }

  const confirmDecline = () => {
    if (!declining) return
    const name = nameOf(declining)
    decide.mutate(
      { reAgentId: declining.id, approve: false, currentStatus: declining.firmMembershipStatus },
      {
        onSuccess: () => {
          setConfirming(false)
          setNotice({ tone: 'success', text: `You declined ${name}'s request. We emailed them.` })
        },
      },
    )
  }

  const grant = (member: FirmMember, reAgentRole: AgentRole) => {
    const name = nameOf(member)
    setNotice(null)
    grantRole.mutate(
      { reAgentId: member.id, reAgentRole },
      {
        onSuccess: () =>
          setNotice({
            tone: 'success',
            text:
              reAgentRole === 'Real Estate Agent'
                ? `${name} is a Real Estate Agent again. We emailed them.`
                : `${name} is now ${reAgentRole}. We emailed them.`,
          }),
        onError: (error) =>
          setNotice({ tone: 'error', text: errorMessage(error, `Couldn't change ${name}'s role.`) }),
      },
    )
  }

  const busyWith = (m: FirmMember) => decide.isPending && decide.variables?.reAgentId === m.id
  const members = roster.data ?? []
  const pending = members.filter((m) => m.firmMembershipStatus === 'pending')
  const verified = members.filter((m) => m.firmMembershipStatus === 'verified')
  const declined = members.filter((m) => m.firmMembershipStatus === 'declined')

  return (
    <div className="firm-members">
      <div className="firm-members__header">
        <div>
          <h2>Firm Members</h2>
          <p className="firm-members__meta">
            {firm} · broker firm license {license}
          </p>
        </div>
        <Button onPress={refresh} isPending={refreshing}>
          Refresh
        </Button>
      </div>
      <p className="firm-members__intro">
        Agents who sign up with your broker firm license wait here until you or another verified Team Lead or
        Admin Team Member approves them. Only verified members see the firm's agents and Market Center offers
        and can join its teams. Everyone starts as Real Estate Agent, whatever role they asked for: a verified
        Team Lead grants Team Lead or Admin Team Member here.
      </p>
      {notice && <Alert tone={notice.tone} title={notice.text} />}

      {roster.isPending ? (
        <Spinner label="Loading your firm's members…" />
      ) : roster.isError ? (
        <Alert
          tone="error"
          title={errorMessage(roster.error, "Couldn't load your firm's members.")}
          actions={<Button onPress={() => void roster.refetch()}>Try again</Button>}
        />
      ) : (
        <>
          <section className="firm-members__group" aria-labelledby="firm-pending-title">
            <h3 id="firm-pending-title">
              Waiting for approval <span className="firm-members__count">({pending.length})</span>
            </h3>
            {pending.length === 0 ? (
              <div className="empty-state">
                <p>No one is waiting for approval.</p>
                <p>Agents who sign up with broker firm license {license} show here for you to approve.</p>
              </div>
            ) : (
              <ul className="firm-list" aria-label="Waiting for approval">
                {pending.map((m) => (
                  <MemberRow key={m.id} member={m}>
                    <Button
                      size="sm"
                      variant="primary"
                      onPress={() => approve(m)}
                      isPending={busyWith(m) && decide.variables?.approve}
                      isDisabled={busyWith(m)}
                      aria-label={`Approve ${nameOf(m)}`}
                    >
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      onPress={() => {
                        decide.reset()
                        setDeclining(m)
                        setConfirming(true)
                      }}
                      isDisabled={busyWith(m)}
                      aria-label={`Decline ${nameOf(m)}`}
                    >
                      Decline
                    </Button>
                  </MemberRow>
                ))}
              </ul>
            )}
          </section>

          <section className="firm-members__group" aria-labelledby="firm-verified-title">
            <h3 id="firm-verified-title">
              Verified members <span className="firm-members__count">({verified.length})</span>
            </h3>
            {verified.length === 0 ? (
              <div className="empty-state">
                <p>No other agent of {firm} is verified yet.</p>
                <p>Approve the requests above and they show here.</p>
              </div>
            ) : (
              <ul className="firm-list" aria-label="Verified members">
                {verified.map((m) => (
                  <MemberRow key={m.id} member={m}>
                    {grants && (
                      <RoleControl
                        member={m}
                        onGrant={(role) => grant(m, role)}
                        isPending={grantRole.isPending && grantRole.variables?.reAgentId === m.id}
                      />
                    )}
                  </MemberRow>
                ))}
              </ul>
            )}
          </section>

          {declined.length > 0 && (
            <section className="firm-members__group" aria-labelledby="firm-declined-title">
              <h3 id="firm-declined-title">
                Declined <span className="firm-members__count">({declined.length})</span>
              </h3>
              <ul className="firm-list" aria-label="Declined">
                {declined.map((m) => (
                  <MemberRow key={m.id} member={m}>
                    <Button
                      size="sm"
                      onPress={() => approve(m)}
                      isPending={busyWith(m)}
                      aria-label={`Approve ${nameOf(m)}`}
                    >
                      Approve
                    </Button>
                  </MemberRow>
                ))}
              </ul>
            </section>
          )}
        </>
      )}

      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={declining ? `Decline ${nameOf(declining)}?` : 'Decline this request?'}
        confirmLabel="Yes, decline"
        onConfirm={confirmDecline}
        isPending={decide.isPending}
        error={
          decide.isError && !decide.variables?.approve ? (
            <Alert tone="error" title={errorMessage(decide.error, "Couldn't decline the request.")} />
          ) : undefined
        }
      >
        <p>
          {declining ? nameOf(declining) : 'The agent'} will not be a member of {firm}: no firm roster, no
          Market Center offers and no teams. We email them. You can still approve them later under Declined.
        </p>
      </ConfirmDialog>
    </div>
  )
}

/** A Team Lead's choice of role for a verified member: the role held, changed with Grant. */
function RoleControl({
  member,
  onGrant,
  isPending,
}: {
  member: FirmMember
  onGrant: (role: AgentRole) => void
  isPending: boolean
}) {
  const [role, setRole] = useState<AgentRole>(member.reAgentRole as AgentRole)
  return (
    <>
      <Select
        aria-label={`Role of ${nameOf(member)}`}
        className="firm-row__role"
        value={role}
        onChange={(key) => key != null && setRole(String(key) as AgentRole)}
      >
        {AGENT_ROLES.map((r) => (
          <SelectItem key={r} id={r}>
            {r}
          </SelectItem>
        ))}
      </Select>
      <Button
        size="sm"
        onPress={() => onGrant(role)}
        isPending={isPending}
        isDisabled={role === member.reAgentRole}
        aria-label={`Grant ${role} to ${nameOf(member)}`}
      >
        Grant
      </Button>
    </>
  )
}

function MemberRow({ member, children }: { member: FirmMember; children?: ReactNode }) {
  const asked =
    member.requestedRole && member.requestedRole !== member.reAgentRole ? member.requestedRole : null
  return (
    <li className="firm-row">
      <div className="firm-row__text">
        <span className="firm-row__name">{nameOf(member)}</span>
        <span className="firm-row__meta">
          {member.reAgentRole}
          {asked && ` · asked for ${asked}`}
          {member.teammate && ' · your teammate'}
          {!member.reAgentLicenseValidityFlag && ' · license not valid'}
        </span>
        {member.roleGrantedBy && member.roleGrantedAt && (
          <span className="firm-row__meta">
            Role set by {member.roleGrantedBy} on {formatDate(member.roleGrantedAt)}
          </span>
        )}
      </div>
      <FirmStatusBadge status={member.firmMembershipStatus} />
      {children && <div className="firm-row__actions">{children}</div>}
    </li>
  )
}
