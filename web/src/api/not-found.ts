import { isNotFound, notFound } from '@tanstack/react-router'
import { ApiError } from './client.ts'

/**
 * A detail request whose 404 becomes the router's not-found page: what the agent may not see (another
 * agent's open house, inventory item or prospect) does not exist for it, and the page says so.
 */
export async function orNotFound<T>(request: Promise<T>): Promise<T> {
  try {
    return await request
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound()
    throw error
  }
}

/** The app's retry rule (api/query-client.ts) that also gives up at once on a not-found. */
export function retryUnlessMissing(failureCount: number, error: unknown): boolean {
  if (isNotFound(error)) return false
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
  return failureCount < 2
}
