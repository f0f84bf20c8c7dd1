import {
  canManageTeamMembers,
  messages,
  type TeamMemberWithSupportingDetails,
  UNLIMITED,
  withinTeamMemberLimit,
} from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { Link } from '../../ui/Link.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { activePlanQueryOptions } from '../pricing/queries.ts'
import { useFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { teamMembersQueryOptions, useRemoveTeamMemberMutation } from './queries.ts'
import './teams.css'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/myteams/$reTeamId/manageMembers/')

type Member = TeamMemberWithSupportingDetails

const memberName = (m: Member) => `${m.realEstateAgent.reAgentFirstName} ${m.realEstateAgent.reAgentLastName}`

/**
 * The plan's team size, when this page can know it: the lead's own plan counts (the server checks the
 * lead's), and only the lead may read it. A co-lead adds without a pre-check; the server's 402 text
 * then shows on the add form.
 */
function useMemberLimit(agentId: number, leadId: number): number | undefined {
  const isLead = agentId === leadId
  const { data } = useQuery({ ...activePlanQueryOptions(agentId), enabled: isLead })
  return isLead ? data?.plan.numberOfTeamMembersPerTeam : undefined
}

/**
 * SPEC /mystuff/myteams/{reTeamId}/manageMembers: titled with the team name and type; Back to My
 * Teams, Refresh, Add New Team Member, and a card per member (name, phone, email) with Remove.
 * Adding and removing are for the lead or co-lead (SPEC §6). An added agent is invited: its card reads
 * "Invited", without phone and email, until it accepts; it takes a place in the plan's team size.
 */
export function TeamMembersPage() {
  const { reTeamId } = routeApi.useParams()
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const members = useSuspenseQuery(teamMembersQueryOptions(reTeamId))
  const { reTeam, reTeamMemberWithSupportingDetailsList: list } = members.data
  const title = `${reTeam.reTeamName} - ${reTeam.teamType}`
  useDocumentTitle(title)
  const canManage = canManageTeamMembers(agentId, reTeam)
  const limit = useMemberLimit(agentId, reTeam.reTeamLeadId)
  const full = limit !== undefined && !withinTeamMemberLimit(list.length, limit)
  const invited = list.filter((m) => m.invitationStatus === 'invited').length
  const accepted = list.length - invited
  const remove = useRemoveTeamMemberMutation(agentId, reTeamId)
  // The member stays named while the dialog fades out; `confirming` opens and closes it.
  const [removing, setRemoving] = useState<Member | null>(null)
  const [confirming, setConfirming] = useState(false)
  // The add form leaves word that the agent was invited.
  const flash = useFlash()
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(() =>
    flash ? { tone: 'success', text: flash } : null,
  )
  const [refreshing, setRefreshing] = useState(false)

  const refresh = async () => {
    setRefreshing(true)
    try {
      await members.refetch()
    } finally {
      setRefreshing(false)
    }
  }

  const confirmRemove = () => {
    if (!removing) return
    const name = memberName(removing)
    remove.mutate(removing.reTeamMemberId, {
      onSuccess: () => {
        setConfirming(false)
        setNotice({ tone: 'success', text: `${name} was removed from the team.` })
      },
      onError: (error) => {
        setConfirming(false)
        setNotice({ tone: 'error', text: errorMessage(error, `Couldn't remove ${name} from the team.`) })
      },
    })
  }

  return (
    <section className="page teams" aria-labelledby="team-members-title">
      <header className="teams__header">
        <div>
          <p className="eyebrow">Team members</p>
          <h1 id="team-members-title">{title}</h1>
          <p className="lede">
            {accepted === 1 ? '1 member' : `${accepted} members`}
            {invited > 0 && ` · ${invited} invited`}
            {limit !== undefined &&
              limit < UNLIMITED &&
              ` · ${list.length} of ${limit} places your plan allows`}
            {reTeam.reTeamActiveFlag ? '' : ' · this team is inactive'}
          </p>
        </div>
        <nav className="teams__actions" aria-label="Team actions">
          <Link to="/mystuff" search={{ activeSection: 'manageMyTeams' }} variant="button-secondary">
            Back to My Teams
          </Link>
          <Button onPress={refresh} isPending={refreshing}>
            Refresh
          </Button>
          {canManage &&
            (full ? (
              <DisabledLink variant="button-primary" reason={messages.teamMemberLimitReached}>
                Add New Team Member
              </DisabledLink>
            ) : (
              <Link
                to="/mystuff/myteams/$reTeamId/manageMembers/new"
                params={{ reTeamId }}
                variant="button-primary"
              >
                Add New Team Member
              </Link>
            ))}
        </nav>
      </header>

      {canManage && full && <Alert tone="info" title={messages.teamMemberLimitReached} />}
      {!canManage && <Alert tone="info" title="Only the team lead or co-lead can add or remove members." />}
      {notice && <Alert tone={notice.tone} title={notice.text} />}

      {list.length === 0 ? (
        <div className="empty-state">
          <p>This team has no members yet.</p>
          {canManage && (
            <p>
              Invite verified agents of your broker firm with Add New Team Member; they join once they accept.
            </p>
          )}
        </div>
      ) : (
        <ul className="team-grid" aria-label="Team members">
          {list.map((member) => (
            <li key={member.reTeamMemberId}>
              <MemberCard
                member={member}
                onRemove={
                  canManage
                    ? () => {
                        setRemoving(member)
                        setConfirming(true)
                      }
                    : undefined
                }
              />
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={removing ? `Remove ${memberName(removing)}?` : 'Remove team member?'}
        confirmLabel="Yes, remove"
        onConfirm={confirmRemove}
        isPending={remove.isPending}
      >
        <p>{messages.confirmRemoveTeamMember}</p>
      </ConfirmDialog>
    </section>
  )
}

function MemberCard({ member, onRemove }: { member: Member; onRemove?: () => void }) {
  const name = memberName(member)
  const { reAgentPhoneNumber: phone, reAgentEmailId: email } = member.realEstateAgent
  const invited = member.invitationStatus === 'invited'
  return (
    <article className={invited ? 'card team-card team-card--invited' : 'card team-card'} aria-label={name}>
      <div className="team-card__header">
        <h2 className="team-card__name">{name}</h2>
        {invited && <span className="status status--invited">Invited</span>}
      </div>
      {invited ? (
        <p className="team-card__meta">
          Invited by email. Phone and email show here once {member.realEstateAgent.reAgentFirstName} accepts.
        </p>
      ) : (
        <dl className="team-card__contact">
          <div>
            <dt>Phone</dt>
            <dd>
              {phone ? (
                <a className="link link--inline" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
                  {phone}
                </a>
              ) : (
                '—'
              )}
            </dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>
              {email ? (
                <a className="link link--inline" href={`mailto:${email}`}>
                  {email}
                </a>
              ) : (
                '—'
              )}
            </dd>
          </div>
        </dl>
      )}
      {onRemove && (
        <div className="team-card__actions">
          <Button size="sm" onPress={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </Button>
        </div>
      )}
    </article>
  )
}
