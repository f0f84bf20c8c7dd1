import { z } from 'zod'
import { clearSession, readToken } from './storage.ts'

/** API.md error body: `{error:{code,message}}`, plus `errors` per field on a 422. */
const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
})

export interface FieldError {
  field: string
  message: string
}

export class ApiError extends Error {
  override readonly name = 'ApiError'

  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** API.md code, e.g. VALIDATION, ALREADY_CLAIMED, or NETWORK / BAD_RESPONSE from this client. */
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message)
  }

  /** The server's message for one form field (422), if it sent one. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors.find((error) => error.field === field)?.message
  }
}

let sessionExpiredHandler: () => void = () => {
  window.location.assign('/signin?session=expired')
}

/** The app registers a router navigation here; the default reloads the page at the sign-in URL. */
export function onSessionExpired(handler: () => void) {
  sessionExpiredHandler = handler
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export interface RequestOptions<T> {
  /** Validates the response's `data`. */
  schema: z.ZodType<T>
  method?: Method
  body?: unknown
  signal?: AbortSignal
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
  const response = await send(path, options, 'application/json')
  const json: unknown = await response.json().catch(() => undefined)
  if (!response.ok) throw failure(response, json, options.redirectOnExpiredSession)

  if (envelope) {
    const whole = schema.safeParse(json)
    if (whole.success) return whole.data
    throw new ApiError(response.status, 'BAD_RESPONSE', 'The server sent an answer this page cannot read.')
  }
  // 204 No Content carries no envelope; validate `undefined` against the schema instead.
  const parsed = z.object({ data: schema }).safeParse(response.status === 204 ? { data: undefined } : json)
  if (!parsed.success) {
    throw new ApiError(response.status, 'BAD_RESPONSE', 'The server sent an answer this page cannot read.')
  }
  return parsed.data.data
}

/**
 * Fetches `/api{path}` as a file (the open house's .ics) with the bearer token, which a plain link
 * could not send. Errors are the same ApiErrors as apiRequest's.
 */
export async function apiDownload(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await send(path, { ...options, method: 'GET' }, '*/*')
  if (!response.ok) {
    const json: unknown = await response.json().catch(() => undefined)
    throw failure(response, json, true)
  }
  return response.blob()
}

async function send(
  path: string,
  { method = 'GET', body, signal, auth = true }: Omit<RequestOptions<unknown>, 'schema'>,
  accept: string,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const token = auth ? readToken() : null
  if (token) headers.Authorization = `Bearer ${token}`
  try {
    return await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    })
  } catch (cause) {
    if (signal?.aborted) throw cause
    throw new ApiError(0, 'NETWORK', 'Could not reach Porchlight. Check your connection and try again.')
  }
}

/** The ApiError for a failed answer; a 403 SESSION_EXPIRED also clears the session and goes to sign-in. */
function failure(response: Response, json: unknown, redirectOnExpiredSession = true): ApiError {
  const parsed = ErrorBody.safeParse(json)
  const error = parsed.success
    ? new ApiError(response.status, parsed.data.error.code, parsed.data.error.message, parsed.data.errors)
    : new ApiError(response.status, `HTTP_${response.status}`, response.statusText || 'Request failed')
  if (error.status === 403 && error.code === 'SESSION_EXPIRED') {
    clearSession()
    if (redirectOnExpiredSession) sessionExpiredHandler()
  }
  return error
}

/** For failures SPEC §8 has no words for (a 5xx): said plainly, never as a stack trace. */
export const UNEXPECTED_ERROR = 'Something went wrong on our side. Please try again in a moment.'

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
