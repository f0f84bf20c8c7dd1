import { z } from 'zod'
import {
  ApiError,
  BAD_RESPONSE_MESSAGE,
  errorFrom,
  type FieldError,
  readJson,
  type SendOptions,
  send,
} from './request.ts'
import { clearSession, readToken } from './storage.ts'

// The agent app's client: request.ts's fetch and error shape, plus the bearer token, a zod check of
// every answer and what an expired session does.

export { ApiError, type FieldError, UNEXPECTED_ERROR } from './request.ts'

let sessionExpiredHandler: () => void = () => {
  window.location.assign('/signin?session=expired')
}

/** The app registers a router navigation here; the default reloads the page at the sign-in URL. */
export function onSessionExpired(handler: () => void) {
  sessionExpiredHandler = handler
}

export interface RequestOptions<T> {
  /** Validates the response's `data`. */
  schema: z.ZodType<T>
  method?: SendOptions['method']
  body?: unknown
  signal?: AbortSignal
  headers?: Record<string, string>
  /** Send the bearer token (default). SPEC §6 public calls (sign-up, sign-in, plans) send none. */
  auth?: boolean
  /** On 403 SESSION_EXPIRED go to sign-in (default). Sign-out turns this off: it is leaving anyway. */
  redirectOnExpiredSession?: boolean
  /**
   * Validate the whole JSON body with `schema` instead of its `data`, for the few answers that carry
   * more than the envelope (the geocoder's `configured`).
   */
  envelope?: boolean
}

/**
 * Calls `/api{path}` and returns the validated `data` of API.md's `{data: …}` envelope.
 * Throws ApiError for every failure; a 403 SESSION_EXPIRED also clears the session and goes to sign-in.
 */
export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const { schema, envelope = false } = options
  const response = await sendAs(path, options)
  const json = await readJson(response)
  if (!response.ok) throw failure(response, json, options.redirectOnExpiredSession)

  if (envelope) {
    const whole = schema.safeParse(json)
    if (whole.success) return whole.data
    throw new ApiError(response.status, 'BAD_RESPONSE', BAD_RESPONSE_MESSAGE)
  }
  // 204 No Content carries no envelope; validate `undefined` against the schema instead.
  const parsed = z.object({ data: schema }).safeParse(response.status === 204 ? { data: undefined } : json)
  if (!parsed.success) throw new ApiError(response.status, 'BAD_RESPONSE', BAD_RESPONSE_MESSAGE)
  return parsed.data.data
}

/**
 * Fetches `/api{path}` as a file (the open house's .ics) with the bearer token, which a plain link
 * could not send. Errors are the same ApiErrors as apiRequest's.
 */
export async function apiDownload(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await sendAs(path, { ...options, method: 'GET', accept: '*/*' })
  if (!response.ok) throw failure(response, await readJson(response), true)
  return response.blob()
}

/** Sends with the stored bearer token unless the call is public (`auth: false`). */
function sendAs(
  path: string,
  {
    method,
    body,
    signal,
    auth = true,
    accept,
    headers,
  }: Omit<RequestOptions<unknown>, 'schema'> & SendOptions,
): Promise<Response> {
  return send(path, { method, body, signal, accept, headers, token: auth ? readToken() : null })
}

/** The ApiError for a failed answer; a 403 SESSION_EXPIRED also clears the session and goes to sign-in. */
function failure(response: Response, json: unknown, redirectOnExpiredSession = true): ApiError {
  const error = errorFrom(response, json)
  if (error.status === 403 && error.code === 'SESSION_EXPIRED') {
    clearSession()
    if (redirectOnExpiredSession) sessionExpiredHandler()
  }
  return error
}

/**
 * What to tell the user about a failed call: the server's own words for a 4xx (they are SPEC §8's
 * texts where it has one), the connection message when offline, else the screen's `fallback`.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK') return error.message
    if (error.status >= 400 && error.status < 500 && !error.code.startsWith('HTTP_')) return error.message
  }
  return fallback
}

/**
 * A failed save as a form shows it (ui/use-form.ts `showError`): a 422's messages beside their
 * fields, otherwise errorMessage's words above the form.
 */
export function formFailure(
  error: unknown,
  fallback: string,
): { fieldErrors: FieldError[]; message: string } {
  return {
    fieldErrors: error instanceof ApiError ? error.fieldErrors : [],
    message: errorMessage(error, fallback),
  }
}
