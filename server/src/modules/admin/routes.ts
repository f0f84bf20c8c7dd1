import { timingSafeEqual } from 'node:crypto'
import { Agent, FirmVerificationRequest, GrantFirmRoleBody } from '@porchlight/shared'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { NotFoundError } from '../../errors.ts'

/** Whether the request carries the operator's token (constant time). */
function isOperator(req: FastifyRequest, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '')
  const wanted = Buffer.from(`Bearer ${token}`)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/**
 * Operator routes, registered only when ADMIN_TOKEN is set. A wrong token gets the same 404 as a route
 * that does not exist, so they reveal nothing.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ token: string }> = async (app, { token }) => {
  const { agents } = app.deps

  // The operator's page lists who asked to be verified (POST /reagentmgmt/requestFirmVerification).
  app.get(
    '/admin/firmVerificationRequests',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        response: { 200: z.object({ data: z.array(FirmVerificationRequest) }) },
      },
      onRequest: async (req) => {
        if (!isOperator(req, token)) throw new NotFoundError()
      },
    },
    async () => ({ data: await agents.firmVerificationRequests() }),
  )

  app.post(
    '/admin/verifyFirmMember/:reAgentId',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: z.object({ reAgentId: z.coerce.number().int().positive() }),
        response: { 200: z.object({ data: Agent }) },
      },
      // Before validation: without the token even a malformed id gets the not-found answer.
      onRequest: async (req) => {
        if (!isOperator(req, token)) throw new NotFoundError()
      },
    },
    async (req) => ({ data: await agents.verifyByOperator(req.params.reAgentId) }),
  )

  app.post(
    '/admin/grantFirmRole/:reAgentId',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: z.object({ reAgentId: z.coerce.number().int().positive() }),
        body: GrantFirmRoleBody,
        response: { 200: z.object({ data: Agent }) },
      },
      onRequest: async (req) => {
        if (!isOperator(req, token)) throw new NotFoundError()
      },
    },
    async (req) => ({ data: await agents.grantByOperator(req.params.reAgentId, req.body.reAgentRole) }),
  )
}
