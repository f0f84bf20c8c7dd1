import {
  AddTeamMemberBody,
  SaveTeamBody,
  Team,
  TeamDetails,
  TeamMember,
  TeamMembersList,
  TeamRef,
  TeamType,
  UpdateTeamBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const tags = ['teams']

export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { teams } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  app.post(
    '/reteammgmt/saveRETeam',
    { schema: { tags, security, body: SaveTeamBody, response: { 201: data(Team) } }, ...guard },
    async (req, reply) => reply.status(201).send({ data: await teams.create(agentOf(req), req.body) }),
  )

  app.patch(
    '/reteammgmt/saveRETeam/:reTeamId',
    {
      schema: {
        tags,
        security,
        params: z.object({ reTeamId: PositiveId }),
        body: UpdateTeamBody,
        response: { 200: data(Team) },
      },
      ...guard,
    },
    async (req) => ({ data: await teams.update(agentOf(req), req.params.reTeamId, req.body) }),
  )

  app.get(
    '/reteammgmt/getRETeamsByREAgentId/:agentId',
    {
      schema: {
        tags,
        security,
        params: z.object({ agentId: PositiveId }),
        response: { 200: data(z.array(Team)) },
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only list your own teams')],
    },
    async (req) => ({ data: await teams.listForAgent(agentOf(req)) }),
  )

  app.get(
    '/reteammgmt/getRETeamByREAgentIdATeamType/:agentId/:teamType',
    {
      schema: {
        tags,
        security,
        params: z.object({ agentId: PositiveId, teamType: TeamType }),
        response: { 200: data(TeamRef.nullable()) },
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only look up your own teams')],
    },
    async (req) => ({ data: await teams.ofAgentAndType(agentOf(req), req.params.teamType) }),
  )

  app.get(
    '/reteammgmt/getRETeamDetails/:id',
    {
      schema: { tags, security, params: z.object({ id: PositiveId }), response: { 200: data(TeamDetails) } },
      ...guard,
    },
    async (req) => ({ data: await teams.details(agentOf(req), req.params.id) }),
  )

  app.post(
    '/reteammgmt/addMemberToRETeam',
    { schema: { tags, security, body: AddTeamMemberBody, response: { 201: data(TeamMember) } }, ...guard },
    async (req, reply) => reply.status(201).send({ data: await teams.addMember(agentOf(req), req.body) }),
  )

  app.get(
    '/reteammgmt/getRETeamMembersByRETeamId/:teamId',
    {
      schema: {
        tags,
        security,
        params: z.object({ teamId: PositiveId }),
        response: { 200: data(TeamMembersList) },
      },
      ...guard,
    },
    async (req) => ({ data: await teams.members(agentOf(req), req.params.teamId) }),
  )

  // The invited agent answers (the invitation mail links to its dashboard).
  for (const [path, answer] of [
    ['acceptTeamInvitation', 'acceptInvitation'],
    ['declineTeamInvitation', 'declineInvitation'],
  ] as const) {
    app.post(
      `/reteammgmt/${path}/:reTeamId`,
      {
        schema: {
          tags,
          security,
          params: z.object({ reTeamId: PositiveId }),
          response: { 200: data(TeamMember) },
        },
        ...guard,
      },
      async (req) => ({ data: await teams[answer](agentOf(req), req.params.reTeamId) }),
    )
  }

  app.delete(
    '/reteammgmt/removeMemberFromRETeam/:reTeamMemberId',
    {
      schema: {
        tags,
        security,
        params: z.object({ reTeamMemberId: PositiveId }),
        response: { 200: data(TeamMember) },
      },
      ...guard,
    },
    async (req) => ({ data: await teams.removeMember(agentOf(req), req.params.reTeamMemberId) }),
  )
}
