import {
  type Actor,
  type Agent,
  agentView,
  type CreateAgentBody,
  type FirmMember,
  type FirmMembershipStatus,
  mayDecideFirmMembership,
  mayGrantFirmRole,
  mayReadRoster,
  maySchedulerFor,
  messages,
  rooms,
  type UpdateAgentBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { inTransaction, onCommit, type Trx } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { type Access, toAgentFacts } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import type { AgentRepo, AgentRow, Decider, StandingResult } from './repo.ts'

type CreateAgent = z.output<typeof CreateAgentBody>
type UpdateAgent = z.output<typeof UpdateAgentBody>

export function toAgent(row: AgentRow): Agent {
  return {
    ...row,
    requestedRole: row.requestedRole ?? null,
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

/** When the role held last changed and by whom: a name, or the operator. */
interface RoleChange {
  at: string
  by: string
}

const OPERATOR_NAME = 'The Porchlight team'

/** Another agent as `viewer` may see it (policy agentView); undefined when it does not exist for it. */
function toFirmMember(
  row: AgentRow,
  viewer: Actor,
  view = agentView(viewer, toAgentFacts(row)),
  roleChange?: RoleChange,
): FirmMember | undefined {
  if (!view) return undefined
  const contact = view !== 'name'
  return {
    id: row.id,
    reAgentFirstName: row.reAgentFirstName,
    reAgentMiddleName: row.reAgentMiddleName,
    reAgentLastName: row.reAgentLastName,
    reAgentRole: row.reAgentRole,
    requestedRole: row.requestedRole ?? null,
    roleGrantedAt: roleChange?.at ?? null,
    roleGrantedBy: roleChange?.by ?? null,
    reAgentBrokerFirmName: row.reAgentBrokerFirmName,
    reAgentBrokerFirmLicense: row.reAgentBrokerFirmLicense,
    reAgentLicenseValidityFlag: row.reAgentLicenseValidityFlag,
    firmMembershipStatus: row.firmMembershipStatus,
    reAgentEmailId: contact ? row.reAgentEmailId : null,
    reAgentPhoneNumber: contact ? row.reAgentPhoneNumber : null,
    teammate: viewer.teammateIds.includes(row.id),
    mayScheduleFor: maySchedulerFor(viewer, row.id),
  }
}

const SCHEDULER_ROLES_LIST = ['Team Lead', 'Admin Team Member'] as const

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

export interface AgentDeps {
  db: Db
  repo: AgentRepo
  access: Access
  outbox: Outbox
  config: { publicUrl: string }
  sockets?: SocketRooms
}

export function createAgentService(d: AgentDeps) {
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
    async findByUserId(userId: number): Promise<AgentRow | undefined> {
      return repo.findByUserId(userId)
    },

    findById(id: number, trx?: Db | Trx): Promise<AgentRow | undefined> {
      return repo.getById(id, trx)
    },

    /** The signed-in user's own profile; one per user, emails unique among agents. */
    async create(userId: number, body: CreateAgent): Promise<Agent> {
      if (body.porchlightUserId !== userId) throw new ForbiddenError('You can only create your own profile')
      if (await repo.findByUserId(userId))
        throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
      if (await repo.emailTaken(body.reAgentEmailId)) {
        throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
      }
      const { reAgentRole: requestedRole, ...fields } = body
      try {
        const row = await repo.create({
          ...fields,
          // A role is granted, never typed: the one asked for is recorded as a request.
          requestedRole,
          porchlightUserId: userId,
          reAgentTeamId: body.reAgentTeamId ?? null,
          reAgentPartneredTeamId: body.reAgentPartneredTeamId ?? null,
          // SPEC: the client always sends true; validity is ours to set, never the client's.
          reAgentLicenseValidityFlag: true,
        })
        return toAgent(row)
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
        throw err
      }
    },

    /** Self only; the read-only fields of SPEC §5 and the role were already dropped by the schema. */
    async update(userId: number, agentId: number, body: UpdateAgent): Promise<Agent> {
      const agent = await repo.getById(agentId)
      if (!agent) throw new NotFoundError()
      if (agent.porchlightUserId !== userId) throw new ForbiddenError('You can only edit your own profile')
      const { reAgentLicenseValidityFlag: _ignored, ...editable } = body
      return toAgent(
        await repo.update(agentId, {
          ...editable,
          reAgentTeamId: editable.reAgentTeamId ?? null,
          reAgentPartneredTeamId: editable.reAgentPartneredTeamId ?? null,
        }),
      )
    },

    /**
     * Itself in full; another agent as the policy lets the caller see it (names for verified colleagues,
     * contact data for accepted teammates); anyone else does not exist for the caller.
     */
    async get(caller: AgentRow | undefined, userId: number, agentId: number): Promise<Agent | FirmMember> {
      const agent = await repo.getById(agentId)
      if (agent && agent.porchlightUserId === userId) return toAgent(agent)
      const seen = agent && caller ? toFirmMember(agent, await d.access.actor(caller)) : undefined
      if (!seen) throw new NotFoundError()
      return seen
    },

    /**
     * The firm's roster, for its verified members: verified colleagues by name (teammates with contact
     * data). A verified Team Lead or Admin Team Member also sees who asks to join, to approve or decline.
     */
    async listByFirm(caller: AgentRow, license: string): Promise<FirmMember[]> {
      const viewer = await d.access.actor(caller)
      if (!mayReadRoster(viewer, license)) throw new ForbiddenError(messages.firmNotVerified)
      const deciding = mayDecideFirmMembership(viewer)
      const rows = await repo.listByFirmLicense(license, deciding)
      const changes = new Map(
        (await repo.lastRoleChanges(rows.map((r) => r.id))).map((c) => [
          c.reAgentId,
          {
            at: new Date(c.createdDate).toISOString(),
            by: c.byFirstName ? `${c.byFirstName} ${c.byLastName}` : OPERATOR_NAME,
          },
        ]),
      )
      return rows.flatMap((row) => {
        if (row.id === caller.id) return []
        // A request to join, by name, for those who decide on it.
        const view = row.firmMembershipStatus === 'verified' ? undefined : deciding ? 'name' : null
        return (
          toFirmMember(
            row,
            viewer,
            view === undefined ? agentView(viewer, toAgentFacts(row)) : view,
            changes.get(row.id),
          ) ?? []
        )
      })
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
      return decide(
        target,
        [currentStatus],
        approve ? 'verified' : 'declined',
        { agentId: caller.id, roles: SCHEDULER_ROLES_LIST },
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

    async findByFirmAndEmail(license: string, email: string): Promise<AgentRow | undefined> {
      return repo.findByFirmAndEmail(license, email)
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
