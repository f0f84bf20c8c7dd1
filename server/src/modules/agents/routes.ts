import {
  Agent,
  CreateAgentBody,
  FirmDecisionBody,
  FirmMember,
  GrantFirmRoleBody,
  UpdateAgentBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf, userOf } from '../../http/auth.ts'
import { data, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const AgentIdParams = z.object({ reAgentId: z.coerce.number().int().positive() })

export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { agents } = app.deps

  // API.md: creating the profile needs the session the user got at validation or sign-in.
  app.post(
    '/reagentmgmt/saveREAgent',
    {
      schema: { tags: ['agents'], security, body: CreateAgentBody, response: { 201: data(Agent) } },
      preHandler: [
        app.requireUser,
        requireSelf('porchlightUserId', 'You can only create your own profile', { in: 'body', of: 'user' }),
      ],
    },
    async (req, reply) => reply.status(201).send({ data: await agents.create(userOf(req).id, req.body) }),
  )

  app.patch(
    '/reagentmgmt/:reAgentId',
    {
      schema: {
        tags: ['agents'],
        security,
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: data(Agent) },
      },
      preHandler: app.requireUser,
    },
    async (req) => ({ data: await agents.update(userOf(req).id, req.params.reAgentId, req.body) }),
  )

  app.get(
    '/reagentmgmt/getREAgentDetails/:reAgentId',
    {
      schema: {
        tags: ['agents'],
        security,
        params: AgentIdParams,
        response: { 200: data(z.union([Agent, FirmMember])) },
      },
      preHandler: app.requireUser,
    },
    async (req) => {
      const caller = await agents.findByUserId(userOf(req).id)
      return { data: await agents.get(caller, userOf(req).id, req.params.reAgentId) }
    },
  )

  app.get(
    '/reagentmgmt/getREAgentsByBrokerFirmLicense/:license',
    {
      schema: {
        tags: ['agents'],
        security,
        params: z.object({ license: z.string().min(1).max(40) }),
        response: { 200: data(z.array(FirmMember)) },
      },
      preHandler: app.requireAgent,
    },
    async (req) => ({ data: await agents.listByFirm(agentOf(req), req.params.license) }),
  )

  // The agent's own request to the operator to verify its firm membership (policy
  // mayAskFirmVerification: an agent not verified, about itself); once a day.
  app.post(
    '/reagentmgmt/requestFirmVerification',
    {
      schema: {
        tags: ['agents'],
        security,
        response: { 202: data(z.object({ requestedAt: z.string(), message: z.string() })) },
      },
      preHandler: app.requireAgent,
    },
    async (req, reply) => reply.status(202).send({ data: await agents.askOperatorToVerify(agentOf(req)) }),
  )

  // The "Firm members" section: a verified Team Lead or Admin Team Member decides who joins its firm.
  for (const [path, approve] of [
    ['approveFirmMember', true],
    ['declineFirmMember', false],
  ] as const) {
    app.post(
      `/reagentmgmt/${path}/:reAgentId`,
      {
        schema: {
          tags: ['agents'],
          security,
          params: AgentIdParams,
          body: FirmDecisionBody,
          response: { 200: data(Agent) },
        },
        preHandler: app.requireLicensedAgent,
      },
      async (req) => ({
        data: await agents.decideFirmMember(
          agentOf(req),
          req.params.reAgentId,
          approve,
          req.body?.currentStatus,
        ),
      }),
    )
  }

  // A verified Team Lead grants Team Lead or Admin Team Member to another verified member of its firm,
  // or revokes it by granting Real Estate Agent.
  app.post(
    '/reagentmgmt/grantFirmRole/:reAgentId',
    {
      schema: {
        tags: ['agents'],
        security,
        params: AgentIdParams,
        body: GrantFirmRoleBody,
        response: { 200: data(Agent) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({
      data: await agents.grantFirmRole(agentOf(req), req.params.reAgentId, req.body.reAgentRole),
    }),
  )
}
