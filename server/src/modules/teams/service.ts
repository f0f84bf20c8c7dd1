import {
  type AddTeamMemberBody,
  canManageMyTeams,
  type InvitationStatus,
  mayJoinTeamOf,
  mayOnTeam,
  messages,
  rooms,
  type SaveTeamBody,
  TEAM_CODE_PLACEHOLDER,
  type Team,
  type TeamDetails,
  type TeamLeadDetails,
  type TeamMember,
  type TeamMembersList,
  type TeamPermission,
  type TeamRef,
  type TeamType,
  type UpdateTeamBody,
  withinTeamLimit,
  withinTeamMemberLimit,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction, onCommit, type Trx } from '../../db/transaction.ts'
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PlanLimitError,
  ValidationError,
} from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { type Access, toAgentFacts } from '../../policy/access.ts'
import { type EventSink, emitAfterCommit, type SocketRooms } from '../../realtime/events.ts'
import type { AgentService } from '../agents/service.ts'
import type { PricingService } from '../pricing/service.ts'
import type { LeadRow, TeamMemberRow, TeamRepo, TeamRow } from './repo.ts'

type SaveBody = z.output<typeof SaveTeamBody>
type UpdateBody = z.output<typeof UpdateTeamBody>
type AddMemberBody = z.output<typeof AddTeamMemberBody>

export interface TeamDeps {
  db: Db
  repo: TeamRepo
  agents: AgentService
  pricing: PricingService
  events: EventSink
  access: Access
  outbox: Outbox
  config: { publicUrl: string }
  sockets?: SocketRooms
  /** Web Push: an agent invited to a team is told (decision 050). */
  push?: PushEvents
}

/** A team and the agents its statistics cover: lead, co-lead, then members. */
export interface TeamPeople {
  id: number
  reTeamName: string
  people: number[]
}

const iso = (d: Date | string) => new Date(d).toISOString()

export function toTeam(row: TeamRow & { invitationStatus?: InvitationStatus | null }): Team {
  return {
    ...(row.invitationStatus !== undefined && { invitationStatus: row.invitationStatus }),
    id: row.id,
    reTeamName: row.reTeamName,
    reTeamCode: row.reTeamCode,
    teamType: row.teamType,
    reTeamLeadId: row.reTeamLeadId,
    reCoTeamLeadId: row.reCoTeamLeadId,
    createdByREAgentId: row.createdByReAgentId,
    reTeamActiveFlag: row.reTeamActiveFlag,
    createdDate: iso(row.createdDate),
    updatedDate: iso(row.updatedDate),
  }
}

function toMember(row: TeamMemberRow): TeamMember {
  return {
    id: row.id,
    reTeamId: row.reTeamId,
    reAgentId: row.reAgentId,
    reAgentCurrentFlag: row.reAgentCurrentFlag,
    addedByREAgentId: row.addedByReAgentId,
    invitationStatus: row.invitationStatus,
    createdDate: iso(row.createdDate),
    updatedDate: iso(row.updatedDate),
  }
}

function toLeadDetails(row: LeadRow): TeamLeadDetails {
  const { porchlightUserId: _user, ...details } = row
  return details
}

const forbidden: Record<TeamPermission, string> = {
  view: 'You are not on this team',
  edit: 'Only the team lead may edit the team',
  manageMembers: 'Only the team lead or co-lead may manage members',
  readMembers: 'Only the team lead, co-lead and members see the members',
  respondToInvitation: 'Only the invited agent may answer its invitation',
}

const teamTypeExists = () => new ConflictError('TEAM_TYPE_EXISTS', messages.teamSaveFailed)
const alreadyMember = () => new ConflictError('ALREADY_TEAM_MEMBER', messages.alreadyTeamMember)

export function createTeamService(d: TeamDeps) {
  const { repo } = d

  /**
   * The team if the caller may do `permission` on it (shared policy): a stranger is not told it
   * exists (404); an insider who may not do this gets 403.
   */
  async function teamFor(caller: AgentRow, teamId: number, permission: TeamPermission): Promise<TeamRow> {
    const [team, invitationStatus, actor] = await Promise.all([
      repo.getById(teamId),
      repo.invitationOf(teamId, caller.id),
      d.access.actor(caller),
    ])
    const facts = team && { ...team, invitationStatus }
    if (!facts || !mayOnTeam(actor, 'view', facts)) throw new NotFoundError()
    if (!mayOnTeam(actor, permission, facts)) throw new ForbiddenError(forbidden[permission])
    return team
  }

  async function assertCoLead(lead: AgentRow, coLeadId: number | null | undefined) {
    if (coLeadId === null || coLeadId === undefined) return
    const candidate = await d.agents.findById(coLeadId)
    if (
      !candidate ||
      candidate.id === lead.id ||
      !mayJoinTeamOf(toAgentFacts(lead), toAgentFacts(candidate))
    ) {
      throw new ValidationError([
        { field: 'reCoTeamLeadId', message: 'Choose another agent of your broker firm as co-lead' },
      ])
    }
  }

  async function planOf(agentId: number) {
    const active = await d.pricing.activePlan(agentId)
    if (!active) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
    return active.plan
  }

  /** Live sockets follow the team's membership once the change has committed. */
  function moveSockets(trx: Trx, agentId: number, teamId: number, how: 'join' | 'leave') {
    const sockets = d.sockets
    if (sockets) onCommit(trx, () => sockets[how](rooms.agent(agentId), rooms.team(teamId)))
  }

  /** The invited agent's answer, in one conditional statement; its sockets follow the membership. */
  async function answer(caller: AgentRow, teamId: number, to: 'accepted' | 'declined') {
    await teamFor(caller, teamId, 'respondToInvitation')
    const from = to === 'accepted' ? ['invited'] : ['invited', 'accepted']
    const row = await inTransaction(d.db, async (trx) => {
      const answered = await repo.respond(teamId, caller.id, from, to, trx)
      if (!answered) throw new ConflictError('INVALID_STATE', 'This invitation was already answered')
      moveSockets(trx, caller.id, teamId, to === 'accepted' ? 'join' : 'leave')
      emitAfterCommit(d.events, trx, [rooms.team(teamId), rooms.agent(caller.id)], 'stats.changed', {
        reTeamId: teamId,
      })
      return answered
    })
    d.access.forget(caller)
    return toMember(row)
  }

  return {
    /** Team Lead role only; the caller leads it; one team per lead and type; within the plan. */
    async create(caller: AgentRow, body: SaveBody): Promise<Team> {
      if (!canManageMyTeams(caller.reAgentRole)) throw new ForbiddenError('Only a Team Lead may create teams')
      if (caller.firmMembershipStatus !== 'verified') throw new ForbiddenError(messages.firmNotVerified)
      await assertCoLead(caller, body.reCoTeamLeadId)
      const plan = await planOf(caller.id)
      const row = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(caller.id, trx)
        if (await repo.ofLeadAndType(caller.id, body.teamType, trx)) throw teamTypeExists()
        if (!withinTeamLimit(await repo.countCreatedBy(caller.id, trx), plan.numberOfTeamsCreate)) {
          throw new PlanLimitError('PLAN_LIMIT_TEAMS', messages.teamLimitReached)
        }
        const team = await repo
          .create(
            {
              reTeamName: body.reTeamName,
              reTeamCode: TEAM_CODE_PLACEHOLDER,
              teamType: body.teamType,
              reTeamLeadId: caller.id,
              reCoTeamLeadId: body.reCoTeamLeadId,
              createdByReAgentId: caller.id,
              reTeamActiveFlag: body.reTeamActiveFlag,
            },
            trx,
          )
          .catch((err) => {
            throw isUniqueViolation(err) ? teamTypeExists() : err
          })
        const leads = [team.reTeamLeadId, ...(team.reCoTeamLeadId ? [team.reCoTeamLeadId] : [])]
        for (const id of leads) moveSockets(trx, id, team.id, 'join')
        emitAfterCommit(d.events, trx, leads.map(rooms.agent), 'stats.changed', { reTeamId: team.id })
        return team
      })
      return toTeam(row)
    },

    /** The team's lead only; an omitted co-lead or active flag stays as it is. */
    async update(caller: AgentRow, teamId: number, body: UpdateBody): Promise<Team> {
      const team = await teamFor(caller, teamId, 'edit')
      await assertCoLead(caller, body.reCoTeamLeadId)
      const row = await inTransaction(d.db, async (trx) => {
        const updated = await repo
          .update(
            teamId,
            {
              reTeamName: body.reTeamName,
              teamType: body.teamType,
              ...(body.reCoTeamLeadId !== undefined && { reCoTeamLeadId: body.reCoTeamLeadId }),
              ...(body.reTeamActiveFlag !== undefined && { reTeamActiveFlag: body.reTeamActiveFlag }),
            },
            trx,
          )
          .catch((err) => {
            throw isUniqueViolation(err) ? teamTypeExists() : err
          })
        const before = team.reCoTeamLeadId
        if (before !== updated.reCoTeamLeadId) {
          if (updated.reCoTeamLeadId) moveSockets(trx, updated.reCoTeamLeadId, teamId, 'join')
          if (before && (await repo.invitationOf(teamId, before, trx)) !== 'accepted')
            moveSockets(trx, before, teamId, 'leave')
        }
        emitAfterCommit(d.events, trx, rooms.team(teamId), 'stats.changed', { reTeamId: teamId })
        return updated
      })
      return toTeam(row)
    },

    async listForAgent(caller: AgentRow): Promise<Team[]> {
      return (await repo.listForAgent(caller.id)).map(toTeam)
    },

    async ofAgentAndType(caller: AgentRow, teamType: TeamType): Promise<TeamRef | null> {
      return (await repo.ofAgentAndType(caller.id, teamType)) ?? null
    },

    async details(caller: AgentRow, teamId: number): Promise<TeamDetails> {
      const team = await teamFor(caller, teamId, 'view')
      const [lead, coLead] = await Promise.all([
        repo.leadDetails(team.reTeamLeadId),
        team.reCoTeamLeadId ? repo.leadDetails(team.reCoTeamLeadId) : undefined,
      ])
      if (!lead) throw new NotFoundError()
      return {
        reTeam: toTeam(team),
        reAgentTeamLeadDetails: toLeadDetails(lead),
        reAgentCoTeamLeadDetails: coLead ? toLeadDetails(coLead) : null,
        userProfileId: lead.porchlightUserId,
      }
    },

    async members(caller: AgentRow, teamId: number): Promise<TeamMembersList> {
      const team = await teamFor(caller, teamId, 'readMembers')
      const members = await repo.members(teamId)
      return {
        reTeam: toTeam(team),
        // Contact data once the member accepted; until then its name and "Invited".
        reTeamMemberWithSupportingDetailsList: members.map(
          ({ reTeamMemberId, invitationStatus, reAgentPhoneNumber, reAgentEmailId, ...names }) => {
            const accepted = invitationStatus === 'accepted'
            return {
              reTeamMemberId,
              invitationStatus,
              realEstateAgent: {
                ...names,
                reAgentPhoneNumber: accepted ? reAgentPhoneNumber : null,
                reAgentEmailId: accepted ? reAgentEmailId : null,
              },
            }
          },
        ),
      }
    },

    /**
     * Lead or co-lead invites a verified agent of the lead's firm, once, within the lead's plan. The agent
     * is a member once it accepts (the invitation mail and an Accept in the app).
     */
    async addMember(caller: AgentRow, body: AddMemberBody): Promise<TeamMember> {
      const team = await teamFor(caller, body.reTeamId, 'manageMembers')
      const [lead, candidate] = await Promise.all([
        team.reTeamLeadId === caller.id ? caller : d.agents.findById(team.reTeamLeadId),
        d.agents.findById(body.reAgentId),
      ])
      if (!lead || !candidate || !mayJoinTeamOf(toAgentFacts(lead), toAgentFacts(candidate))) {
        throw new ValidationError([{ field: 'reAgentId', message: messages.teamMemberNotVerified }])
      }
      if (candidate.id === team.reTeamLeadId || candidate.id === team.reCoTeamLeadId) throw alreadyMember()
      const plan = await planOf(team.reTeamLeadId)
      const row = await inTransaction(d.db, async (trx) => {
        await repo.lockTeam(team.id, trx)
        if (await repo.isMember(team.id, candidate.id, trx)) throw alreadyMember()
        if (!withinTeamMemberLimit(await repo.countMembers(team.id, trx), plan.numberOfTeamMembersPerTeam)) {
          throw new PlanLimitError('PLAN_LIMIT_MEMBERS', messages.teamMemberLimitReached)
        }
        const member =
          (await repo.reinvite(team.id, candidate.id, caller.id, trx)) ??
          (await repo.addMember(team.id, candidate.id, caller.id, trx).catch((err) => {
            throw isUniqueViolation(err) ? alreadyMember() : err
          }))
        await queueMail(
          trx,
          d.outbox,
          mailTemplates.teamMembershipInvitation(candidate.reAgentEmailId, {
            firstName: candidate.reAgentFirstName,
            team: team.reTeamName,
            teamType: team.teamType,
            lead: `${caller.reAgentFirstName} ${caller.reAgentLastName}`,
            link: `${d.config.publicUrl}/dashboard?invitation=${team.id}`,
          }),
        )
        await d.push?.told(trx, [candidate.id], {
          event: 'team.invitation',
          title: 'Team invitation',
          body: 'You are invited to join a team',
          url: `/dashboard?invitation=${team.id}`,
          tag: `team-${team.id}`,
        })
        emitAfterCommit(d.events, trx, [rooms.team(team.id), rooms.agent(candidate.id)], 'stats.changed', {
          reTeamId: team.id,
        })
        return member
      })
      return toMember(row)
    },

    /** Lead or co-lead. */
    async removeMember(caller: AgentRow, memberId: number): Promise<TeamMember> {
      const member = await repo.memberById(memberId)
      if (!member) throw new NotFoundError()
      const team = await teamFor(caller, member.reTeamId, 'manageMembers')
      const row = await inTransaction(d.db, async (trx) => {
        const removed = await repo.removeMember(memberId, trx)
        if (!removed) throw new NotFoundError()
        // Heard in the team room before the removed agent's sockets leave it.
        emitAfterCommit(
          d.events,
          trx,
          [rooms.team(team.id), rooms.agent(removed.reAgentId)],
          'stats.changed',
          {
            reTeamId: team.id,
          },
        )
        const stillLeads =
          removed.reAgentId === team.reTeamLeadId || removed.reAgentId === team.reCoTeamLeadId
        if (!stillLeads) moveSockets(trx, removed.reAgentId, team.id, 'leave')
        return removed
      })
      return toMember(row)
    },

    /** The invited agent accepts: it becomes a member, hears the team's offers and counts in its numbers. */
    acceptInvitation(caller: AgentRow, teamId: number): Promise<TeamMember> {
      return answer(caller, teamId, 'accepted')
    },

    /** The invited agent declines (or a member leaves): it no longer counts as a member. */
    declineInvitation(caller: AgentRow, teamId: number): Promise<TeamMember> {
      return answer(caller, teamId, 'declined')
    },

    /** For statistics: a team the caller belongs to, with the agents it covers. */
    async people(caller: AgentRow, teamId: number): Promise<TeamPeople> {
      const team = await teamFor(caller, teamId, 'readMembers')
      return { id: team.id, reTeamName: team.reTeamName, people: await repo.people(team.id) }
    },

    /** For the dashboard: the teams the agent leads or co-leads, with the agents each covers. */
    async ledBy(agentId: number): Promise<TeamPeople[]> {
      const teams = await repo.ledBy(agentId)
      return Promise.all(teams.map(async (t) => ({ ...t, people: await repo.people(t.id) })))
    },
  }
}

export type TeamService = ReturnType<typeof createTeamService>
