import { asksForSelf } from '@porchlight/shared'
import type { FastifyRequest } from 'fastify'
import { ForbiddenError } from '../errors.ts'
import { agentOf, userOf } from '../http/auth.ts'

export interface SelfField {
  /** Where the id is: a path parameter (the default) or a body field. */
  in?: 'params' | 'body'
  /** Whose id it must be: the caller's agent profile (the default) or its user account. */
  of?: 'agent' | 'user'
}

/**
 * preHandler, after the session guard: the id the route names is the caller's own, else 403 with the
 * route's words (policy `asksForSelf`). Past it, the handler and the service use the caller's id only,
 * so no service compares ids by hand.
 */
export function requireSelf(field: string, message: string, where: SelfField = {}) {
  return async (req: FastifyRequest): Promise<void> => {
    const source = (where.in === 'body' ? req.body : req.params) as Record<string, unknown> | undefined
    const caller = where.of === 'user' ? userOf(req) : agentOf(req)
    if (!asksForSelf(caller, Number(source?.[field]))) throw new ForbiddenError(message)
  }
}
