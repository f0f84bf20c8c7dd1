/** The constraint a PostgreSQL unique violation (23505) broke, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null
  const e = err as { code?: string; constraint?: string }
  return e.code === '23505' ? (e.constraint ?? '') : null
}

export function isUniqueViolation(err: unknown): boolean {
  return uniqueViolation(err) !== null
}

/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * admin_shutdown / crash_shutdown / cannot_connect_now (a restart, a failover, a recovery), and
 * too_many_connections.
 */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/
/** Socket failures on the way to the server (node:net codes). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** What node-postgres says of a connection it lost or never had (its errors carry no code). */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout expired',
  'timeout exceeded when trying to connect',
]

/**
 * Whether a statement failed because the database could not be reached or dropped the connection
 * (a restart, a failover, a network cut), not because of the statement: the same statement may
 * succeed once the server is back. A request answers it with 503 and Retry-After.
 */
export function isConnectionLost(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || SOCKET_CODES.has(code))) return true
    if (typeof message === 'string' && LOST_MESSAGES.some((m) => message.startsWith(m))) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}
