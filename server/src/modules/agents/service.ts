import {
  type Actor,
  type Agent,
  agentView,
  type CreateAgentBody,
  type FirmMember,
  mayDecideFirmMembership,
  mayOwnAgentProfile,
  mayReadRoster,
  maySchedulerFor,
  messages,
  type UpdateAgentBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import type { Trx } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts'
import { toAgentFacts } from '../../policy/access.ts'
import { createFirmDecisions, type FirmDeps } from './firm-decisions.ts'
import { OPERATOR_NAME, toAgent } from './payload.ts'
import type { AgentRow } from './repo.ts'

type CreateAgent = z.output<typeof CreateAgentBody>
type UpdateAgent = z.output<typeof UpdateAgentBody>

/** When the role held last changed and by whom: a name, or the operator. */
interface RoleChange {
  at: string
  by: string
}

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

export type AgentDeps = FirmDeps

export function createAgentService(d: AgentDeps) {
  const { repo } = d

  const firm = createFirmDecisions(d)

  return {
    async findByUserId(userId: number): Promise<AgentRow | undefined> {
      return repo.findByUserId(userId)
    },

    findById(id: number, trx?: Db | Trx): Promise<AgentRow | undefined> {
      return repo.getById(id, trx)
    },

    /** The signed-in user's own profile; one per user, emails unique among agents. */
    async create(userId: number, body: CreateAgent): Promise<Agent> {
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
      if (!mayOwnAgentProfile({ id: userId }, agent))
        throw new ForbiddenError('You can only edit your own profile')
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

    ...firm,

    async findByFirmAndEmail(license: string, email: string): Promise<AgentRow | undefined> {
      return repo.findByFirmAndEmail(license, email)
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
