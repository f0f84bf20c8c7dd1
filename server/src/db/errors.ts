/** The constraint a PostgreSQL unique violation (23505) broke, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null
  const e = err as { code?: string; constraint?: string }
  return e.code === '23505' ? (e.constraint ?? '') : null
}

export function isUniqueViolation(err: unknown): boolean {
  return uniqueViolation(err) !== null
}
