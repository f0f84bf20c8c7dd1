import { messages } from '@porchlight/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AgentRow } from '../db/rows.ts'
import { ForbiddenError, SessionExpiredError } from '../errors.ts'

export interface RequestUser {
  id: number
  sessionId: string
  /** The session was opened with a temporary password. */
  recovery: boolean
}

type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null
    agent: AgentRow | null
  }
  interface FastifyInstance {
    /** preHandler: a valid bearer session, else 403 SESSION_EXPIRED. */
    requireUser: Guard
    /** preHandler: a session whose user has an agent profile. */
    requireAgent: Guard
    /** preHandler: an agent whose license is valid (SPEC §1), else 403 LICENSE_INVALID. */
    requireLicensedAgent: Guard
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
  app.decorateRequest('agent', null)

  const requireUser: Guard = async (req) => {
    const token = bearer(req)
    const session = token ? await app.deps.sessions.validate(token) : null
    if (!session) throw new SessionExpiredError()
    req.user = { id: session.userId, sessionId: session.id, recovery: session.recovery }
  }
  // The session and its agent profile in one round trip (the guard of most routes).
  const requireAgent: Guard = async (req) => {
    const token = bearer(req)
    const session = token ? await app.deps.sessions.validateWithAgent(token) : null
    if (!session) throw new SessionExpiredError()
    req.user = { id: session.userId, sessionId: session.id, recovery: session.recovery }
    if (!session.agent) {
      throw new ForbiddenError('Create your real estate agent profile first', 'NO_AGENT_PROFILE')
    }
    req.agent = session.agent
  }
  const requireLicensedAgent: Guard = async (req, reply) => {
    await requireAgent(req, reply)
    if (!agentOf(req).reAgentLicenseValidityFlag)
      throw new ForbiddenError(messages.licenseNotValid, 'LICENSE_INVALID')
  }

  app.decorate('requireUser', requireUser)
  app.decorate('requireAgent', requireAgent)
  app.decorate('requireLicensedAgent', requireLicensedAgent)
})

/** The user a guard has put on the request; a route without the guard is a programming error. */
export function userOf(req: FastifyRequest): RequestUser {
  if (!req.user) throw new SessionExpiredError()
  return req.user
}

export function agentOf(req: FastifyRequest): AgentRow {
  if (!req.agent) throw new ForbiddenError('Create your real estate agent profile first', 'NO_AGENT_PROFILE')
  return req.agent
}
