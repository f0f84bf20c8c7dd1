import { type Agent, type CreateAgentBody, messages, type UpdateAgentBody } from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import type { Trx } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts'
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

export function createAgentService(repo: AgentRepo) {
  return {
    async findByUserId(userId: number): Promise<AgentRow | undefined> {
      return repo.findByUserId(userId)
    },

    teamIds: repo.teamIds,

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

    /** An agent sees itself and agents of its own broker firm; others do not exist for it. */
    async get(caller: AgentRow | undefined, userId: number, agentId: number): Promise<Agent> {
      const agent = await repo.getById(agentId)
      const visible =
        agent &&
        (agent.porchlightUserId === userId ||
          (caller && caller.reAgentBrokerFirmLicense === agent.reAgentBrokerFirmLicense))
      if (!agent || !visible) throw new NotFoundError()
      return toAgent(agent)
    },

    async listByFirm(caller: AgentRow, license: string): Promise<Agent[]> {
      if (caller.reAgentBrokerFirmLicense !== license)
        throw new ForbiddenError('Only agents of this firm may list it')
      return (await repo.listByFirmLicense(license)).map(toAgent)
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
