import {
  type Agent,
  agentView,
  type FirmMembershipStatus,
  mayAskFirmVerification,
  mayDecideFirmMembership,
  mayGrantFirmRole,
  messages,
  rooms,
  SCHEDULER_ROLES,
} from '@porchlight/shared'
import type { Db } from '../../db/database.ts'
import { inTransaction, onCommit } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { type Access, toAgentFacts } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import { OPERATOR_NAME, toAgent } from './payload.ts'
import type { AgentRepo, AgentRow, Decider, StandingResult } from './repo.ts'

// Firm decisions (decision 028): approve and decline a membership, grant and revoke a role, by a verified
// member of the firm who may (the one policy) or by the operator; each one conditional write (repo.ts).

export interface FirmDeps {
  db: Db
  repo: AgentRepo
  access: Access
  outbox: Outbox
  config: { publicUrl: string; operatorEmail?: string | undefined }
  sockets?: SocketRooms
  /** Web Push: the agent decided on is told (decision 050). */
  push?: PushEvents
}

const nameOf = (a: AgentRow) => `${a.reAgentFirstName} ${a.reAgentLastName}`

/** Why a firm decision or grant wrote nothing, from what its statement met. */
function refusal(
  r: StandingResult,
  by: Decider,
  what: { grant: string } | { from: readonly string[] },
): NotFoundError | ForbiddenError | ConflictError {
  if (r.standingStatus === null) return new NotFoundError()
  if ('agentId' in by && (r.byRole === null || !by.roles.includes(r.byRole)))
    return new ForbiddenError(
      'grant' in what
        ? messages.onlyTeamLeadGrants
        : 'Only a verified Team Lead or Admin Team Member of this firm may decide',
    )
  if ('grant' in what) {
    if (r.standingStatus !== 'verified')
      return new ConflictError('NOT_VERIFIED', messages.roleNeedsVerifiedMember)
    if (r.previousRole === what.grant) return new ConflictError('ROLE_HELD', messages.roleAlreadyHeld)
    if (what.grant === 'Team Lead' && !r.licensed)
      return new ConflictError('LICENSE_REQUIRED', messages.roleNeedsLicense)
  } else if (!what.from.includes(r.standingStatus)) {
    return new ConflictError('ALREADY_DECIDED', messages.firmDecisionTaken)
  }
  if (r.previousRole === 'Team Lead' && r.otherLeads === 0) {
    return new ConflictError('LAST_TEAM_LEAD', messages.lastTeamLead)
  }
  return new ConflictError('ALREADY_DECIDED', messages.firmDecisionTaken)
}

export function createFirmDecisions(d: FirmDeps) {
  const { repo } = d

  /**
   * Verifies or declines `target`'s membership of its firm in one conditional write (repo
   * decideFirmMembership), tells it by mail, and moves its sockets. A decision someone else took
   * meanwhile is a 409, and so is declining the firm's last verified Team Lead (the operator aside).
   */
  async function decide(
    target: AgentRow,
    from: readonly FirmMembershipStatus[],
    status: 'verified' | 'declined',
    by: Decider,
    byName: string,
  ): Promise<Agent> {
    const row = await inTransaction(d.db, async (trx) => {
      const result = await repo.decideFirmMembership(
        target.id,
        target.reAgentBrokerFirmLicense,
        from,
        status,
        by,
        trx,
      )
      const updated = result.agent
      if (!updated) throw refusal(result, by, { from })
      await queueMail(
        trx,
        d.outbox,
        mailTemplates.firmMembershipDecided(updated.reAgentEmailId, {
          firstName: updated.reAgentFirstName,
          firm: updated.reAgentBrokerFirmName,
          approved: status === 'verified',
          by: byName,
          link: `${d.config.publicUrl}/openhouses?activeSection=searchOH`,
        }),
      )
      await d.push?.told(trx, [updated.id], {
        event: 'firm.decision',
        title: 'Firm membership',
        body: 'Your firm decided on your membership',
        url: '/mystuff',
        tag: 'firm-decision',
      })
      const sockets = d.sockets
      if (sockets) {
        const room = rooms.marketFirm(updated.reAgentBrokerFirmLicense)
        onCommit(trx, () => sockets[status === 'verified' ? 'join' : 'leave'](rooms.agent(updated.id), room))
      }
      return updated
    })
    return toAgent(row)
  }

  /**
   * The agent a firm decision is about: of the caller's firm, and one the caller may see (a request to
   * join is seen by who may decide on it); anyone else does not exist for it.
   */
  async function visibleTarget(caller: AgentRow, agentId: number): Promise<AgentRow> {
    const target = await repo.getById(agentId)
    if (!target || target.reAgentBrokerFirmLicense !== caller.reAgentBrokerFirmLicense)
      throw new NotFoundError()
    const viewer = await d.access.actor(caller)
    const facts = toAgentFacts(target)
    if (agentView(viewer, facts) === null && !mayDecideFirmMembership(viewer, facts))
      throw new NotFoundError()
    return target
  }

  /** Grants `role` to `target` in one conditional write (repo grantFirmRole) and tells it by mail. */
  async function grant(target: AgentRow, role: string, by: Decider, byName: string): Promise<Agent> {
    const row = await inTransaction(d.db, async (trx) => {
      const result = await repo.grantFirmRole(target.id, target.reAgentBrokerFirmLicense, role, by, trx)
      const updated = result.agent
      if (!updated) throw refusal(result, by, { grant: role })
      await queueMail(
        trx,
        d.outbox,
        mailTemplates.firmRoleGranted(updated.reAgentEmailId, {
          firstName: updated.reAgentFirstName,
          firm: updated.reAgentBrokerFirmName,
          role: updated.reAgentRole,
          previousRole: result.previousRole ?? 'Real Estate Agent',
          by: byName,
          link: `${d.config.publicUrl}/mystuff`,
        }),
      )
      return updated
    })
    return toAgent(row)
  }

  return {
    /**
     * The agent asks the operator to verify its firm membership (the first agent of a firm has nobody
     * in it who could): the request is listed on the operator's page and, with OPERATOR_EMAIL set,
     * mailed there. Once a day at most; a second request within the day is refused with when to ask.
     */
    async askOperatorToVerify(caller: AgentRow): Promise<{ requestedAt: string; message: string }> {
      if (!mayAskFirmVerification(await d.access.actor(caller))) {
        throw new ConflictError('INVALID_STATE', messages.firmAlreadyVerified)
      }
      return inTransaction(d.db, async (trx) => {
        const asked = await d.repo.askFirmVerification(caller.id, trx)
        if (!asked) {
          const current = await d.repo.getById(caller.id, trx)
          if (!current || current.firmMembershipStatus === 'verified') {
            throw new ConflictError('INVALID_STATE', messages.firmAlreadyVerified)
          }
          const next = (current.firmVerificationRequestedAt?.getTime() ?? Date.now()) + 86_400_000
          throw new RateLimitedError(
            messages.firmVerificationAskedToday,
            Math.max(1, Math.ceil((next - Date.now()) / 1000)),
          )
        }
        if (d.config.operatorEmail) {
          const firmMembers = await d.repo.listByFirmLicense(asked.reAgentBrokerFirmLicense, false)
          await queueMail(
            trx,
            d.outbox,
            mailTemplates.firmVerificationRequested(d.config.operatorEmail, {
              agent: nameOf(asked),
              email: asked.reAgentEmailId,
              firm: asked.reAgentBrokerFirmName,
              license: asked.reAgentBrokerFirmLicense,
              verifiedMembers: firmMembers.filter((m) => m.firmMembershipStatus === 'verified').length,
              link: `${d.config.publicUrl}/admin/firm-verification`,
            }),
          )
        }
        return {
          requestedAt: (asked.firmVerificationRequestedAt ?? new Date()).toISOString(),
          message: messages.firmVerificationRequested,
        }
      })
    },

    /** The operator's list: agents not verified who asked it to verify them, oldest first. */
    async firmVerificationRequests() {
      const rows = await d.repo.firmVerificationRequests()
      return rows.map((r) => ({
        reAgentId: r.id,
        reAgentFullName: `${r.reAgentFirstName} ${r.reAgentLastName}`,
        reAgentEmailId: r.reAgentEmailId,
        reAgentBrokerFirmName: r.reAgentBrokerFirmName,
        reAgentBrokerFirmLicense: r.reAgentBrokerFirmLicense,
        firmMembershipStatus: r.firmMembershipStatus,
        requestedAt: (r.firmVerificationRequestedAt ?? new Date(0)).toISOString(),
      }))
    },

    /**
     * A verified Team Lead or Admin Team Member of the same firm license approves or declines the
     * membership it saw as `currentStatus` (a request to join, unless it says otherwise).
     */
    async decideFirmMember(
      caller: AgentRow,
      agentId: number,
      approve: boolean,
      currentStatus: FirmMembershipStatus = 'pending',
    ): Promise<Agent> {
      const target = await visibleTarget(caller, agentId)
      const viewer = await d.access.actor(caller)
      if (!mayDecideFirmMembership(viewer, toAgentFacts(target))) {
        throw new ForbiddenError('Only a verified Team Lead or Admin Team Member of this firm may decide')
      }
      const outcome = approve ? 'verified' : 'declined'
      // Approving the verified or declining the declined decides nothing (and mails nobody).
      if (currentStatus === outcome) throw new ConflictError('ALREADY_DECIDED', messages.firmDecisionSame)
      return decide(
        target,
        [currentStatus],
        outcome,
        { agentId: caller.id, roles: SCHEDULER_ROLES },
        nameOf(caller),
      )
    },

    /** A verified Team Lead of the same firm grants (or, as Real Estate Agent, revokes) a role. */
    async grantFirmRole(caller: AgentRow, agentId: number, role: string): Promise<Agent> {
      const target = await visibleTarget(caller, agentId)
      const viewer = await d.access.actor(caller)
      if (!mayGrantFirmRole(viewer, toAgentFacts(target)))
        throw new ForbiddenError(messages.onlyTeamLeadGrants)
      return grant(target, role, { agentId: caller.id, roles: ['Team Lead'] }, nameOf(caller))
    },

    /** The operator grants or revokes a role (ADMIN_TOKEN, `pnpm firm:verify`), also the last lead's. */
    async grantByOperator(agentId: number, role: string): Promise<Agent> {
      const target = await repo.getById(agentId)
      if (!target) throw new NotFoundError()
      return grant(target, role, { operator: true }, OPERATOR_NAME)
    },

    /**
     * An operator verifies an agent (a firm's first member), from the admin route or the command line.
     * An agent already verified stays so, without another mail.
     */
    async verifyByOperator(agentId: number): Promise<Agent> {
      const target = await repo.getById(agentId)
      if (!target) throw new NotFoundError()
      if (target.firmMembershipStatus === 'verified') return toAgent(target)
      return decide(target, ['pending', 'declined'], 'verified', { operator: true }, OPERATOR_NAME)
    },
  }
}
