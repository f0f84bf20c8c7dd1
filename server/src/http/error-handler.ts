import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isConnectionLost } from '../db/errors.ts'
import { AppError, type FieldError, OverloadedError, RateLimitedError } from '../errors.ts'
import { isRedisUnavailable } from '../redis.ts'

interface ErrorBody {
  error: { code: string; message: string }
  errors?: FieldError[]
}

const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
}

/**
 * Seconds a refused caller is asked to wait (Retry-After) when a server the request needs is away: a
 * PostgreSQL restart or failover takes a few seconds, and the request is then answered as usual.
 */
export const RETRY_AFTER_SECONDS = 5

/** The answer to a request the API cannot serve now (a database away, the process stopping). */
export const unavailable = {
  code: 'UNAVAILABLE',
  message: 'Porchlight is briefly unavailable. Please try again in a moment.',
} as const

function body(code: string, message: string, errors?: FieldError[]): ErrorBody {
  return errors ? { error: { code, message }, errors } : { error: { code, message } }
}

/** The one place errors become responses: API.md's shape, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500 && !(err instanceof OverloadedError)) req.log.error({ err }, err.message)
      if (err instanceof RateLimitedError && err.retryAfterSec) reply.header('retry-after', err.retryAfterSec)
      if (err.statusCode === 503) reply.header('retry-after', RETRY_AFTER_SECONDS)
      return reply.status(err.statusCode).send(body(err.code, err.message, err.fields))
    }
    // PostgreSQL or Redis away (a restart, a failover, a dropped connection): not the request's fault
    // nor a bug. The same request succeeds once the server is back; the caller is told when to retry.
    if (isConnectionLost(err) || isRedisUnavailable(err)) {
      req.log.warn({ err }, 'a server the request needs is unavailable')
      reply.header('retry-after', RETRY_AFTER_SECONDS)
      return reply.status(503).send(body(unavailable.code, unavailable.message))
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        field: fieldName(v.instancePath),
        message: v.message ?? 'Invalid value',
      }))
      // A body that fails its schema is the caller's form to fix (422); a bad URL is a bad request.
      if (err.validationContext === 'body') {
        return reply.status(422).send(body('VALIDATION', 'Some fields need attention', fields))
      }
      const detail = fields.map((f) => `${f.field}: ${f.message}`).join('; ')
      return reply.status(400).send(body('BAD_REQUEST', `Bad ${err.validationContext}: ${detail}`))
    }
    const refused = databaseRefusal(err)
    if (refused) return reply.status(refused.status).send(body(refused.code, refused.message))
    const status = err.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(codeByStatus[status] ?? 'BAD_REQUEST', err.message))
    }
    req.log.error({ err }, 'request failed')
    return reply.status(500).send(body('INTERNAL', 'Something went wrong'))
  })

  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send(body('NOT_FOUND', `No route for ${req.method} ${req.url.split('?')[0]}`)),
  )
}

/**
 * PostgreSQL refusing a value is the caller's input, not our failure: a data exception (SQLSTATE class
 * 22: a NUL byte, a number or date out of range) or an integrity violation (class 23: a reference to
 * nothing, a duplicate, a broken check) answers 4xx. Services map the violations they expect to their
 * own messages first; this is the net under them. The answer names no table, column or constraint.
 */
function databaseRefusal(err: unknown): { status: number; code: string; message: string } | null {
  const sqlState = (err as { code?: unknown }).code
  if (typeof sqlState !== 'string' || !/^2[23][0-9A-Z]{3}$/.test(sqlState)) return null
  if (sqlState.startsWith('22'))
    return { status: 400, code: 'BAD_REQUEST', message: 'A value is not acceptable' }
  if (sqlState === '23503') return { status: 404, code: 'NOT_FOUND', message: 'Not found' }
  if (sqlState === '23505') return { status: 409, code: 'CONFLICT', message: 'This already exists' }
  return { status: 422, code: 'VALIDATION', message: 'Some fields need attention' }
}

function fieldName(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.') || '(body)'
}
