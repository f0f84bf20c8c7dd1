import {
  type Actor,
  type Agent,
  agentView,
  type CreateAgentBody,
  type FirmMember,
  mayDecideFirmMembership,
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
import type { AgentRepo, AgentRow } from './repo.ts'

type CreateAgent = z.output<typeof CreateAgentBody>
type UpdateAgent = z.output<typeof UpdateAgentBody>

export function toAgent(row: AgentRow): Agent {
  return {
    ...row,
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

/** Another agent as `viewer` may see it (policy agentView); undefined when it does not exist for it. */
function toFirmMember(
  row: AgentRow,
  viewer: Actor,
  view = agentView(viewer, toAgentFacts(row)),
): FirmMember | undefined {
  if (!view) return undefined
  const contact = view !== 'name'
  return {
    id: row.id,
    reAgentFirstName: row.reAgentFirstName,
    reAgentMiddleName: row.reAgentMiddleName,
    reAgentLastName: row.reAgentLastName,
    reAgentRole: row.reAgentRole,
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

  /** Verifies or declines `target`'s membership of its firm, tells it by mail, and moves its sockets. */
  async function decide(
    target: AgentRow,
    status: 'verified' | 'declined',
    by: { id: number | null; name: string },
  ): Promise<Agent> {
    const row = await inTransaction(d.db, async (trx) => {
      const updated = await repo.setFirmMembership(
        target.id,
        target.reAgentBrokerFirmLicense,
        status,
        by.id,
        trx,
      )
      if (!updated) throw new NotFoundError()
      await queueMail(
        trx,
        d.outbox,
        mailTemplates.firmMembershipDecided(updated.reAgentEmailId, {
          firstName: updated.reAgentFirstName,
          firm: updated.reAgentBrokerFirmName,
          approved: status === 'verified',
          by: by.name,
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
      try {
        const row = await repo.create({
          ...body,
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

    /** Self only; the read-only fields of SPEC §5 were already dropped by the schema. */
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
      return rows.flatMap((row) => {
        if (row.id === caller.id) return []
        // A request to join, by name, for those who decide on it.
        const view = row.firmMembershipStatus === 'verified' ? undefined : deciding ? 'name' : null
        return toFirmMember(row, viewer, view) ?? []
      })
    },

    /** A verified Team Lead or Admin Team Member of the same firm license approves or declines. */
    async decideFirmMember(caller: AgentRow, agentId: number, approve: boolean): Promise<Agent> {
      const target = await repo.getById(agentId)
      const viewer = await d.access.actor(caller)
      if (!target || target.reAgentBrokerFirmLicense !== caller.reAgentBrokerFirmLicense)
        throw new NotFoundError()
      if (!mayDecideFirmMembership(viewer, toAgentFacts(target))) {
        // Someone it may not even see does not exist for it.
        if (agentView(viewer, toAgentFacts(target)) === null) throw new NotFoundError()
        throw new ForbiddenError('Only a verified Team Lead or Admin Team Member of this firm may decide')
      }
      return decide(target, approve ? 'verified' : 'declined', {
        id: caller.id,
        name: `${caller.reAgentFirstName} ${caller.reAgentLastName}`,
      })
    },

    /** An operator verifies an agent (a firm's first member), from the admin route or the command line. */
    async verifyByOperator(agentId: number): Promise<Agent> {
      const target = await repo.getById(agentId)
      if (!target) throw new NotFoundError()
      return decide(target, 'verified', { id: null, name: 'The Porchlight team' })
    },

    async findByFirmAndEmail(license: string, email: string): Promise<AgentRow | undefined> {
      return repo.findByFirmAndEmail(license, email)
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
