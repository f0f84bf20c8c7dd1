import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { SessionExpiredError } from '../../errors.ts'

export interface RequestUser {
  id: number
  sessionId: string
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null
  }
  interface FastifyInstance {
    /** preHandler: a valid bearer session, else 403 SESSION_EXPIRED. */
    requireUser(req: FastifyRequest, reply: FastifyReply): Promise<void>
  }
}

function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization
  if (!header) return null
  const [scheme, token] = header.split(' ')
  return scheme?.toLowerCase() === 'bearer' && token ? token : null
}

export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null)
  app.decorate('requireUser', async (req: FastifyRequest) => {
    const token = bearer(req)
    const session = token ? await app.deps.sessions.validate(token) : null
    if (!session) throw new SessionExpiredError()
    req.user = { id: session.userId, sessionId: session.id }
  })
})
