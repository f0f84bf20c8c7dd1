// The part of calling the API that both apps share: fetch, API.md's `{data}` envelope and its error
// shape. No zod and no session: the guest pages use it as it is and must stay light (DESIGN.md ≤ 80 KB
// gzipped); the agent app's client.ts adds the bearer token, response validation and session expiry.

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

  /** Worth sending again later as it was: no connection, a gateway hiccup or the rate limit. */
  get retryable(): boolean {
    return [0, 429, 502, 503, 504].includes(this.status)
  }
}

export const NETWORK_MESSAGE = 'Could not reach Porchlight. Check your connection and try again.'
/** For failures SPEC §8 has no words for (a 5xx): said plainly, never as a stack trace. */
export const UNEXPECTED_ERROR = 'Something went wrong on our side. Please try again in a moment.'
export const BAD_RESPONSE_MESSAGE = 'The server sent an answer this page cannot read.'

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  body?: unknown
  signal?: AbortSignal
  /** Sent as the bearer token when given. */
  token?: string | null
  accept?: string
  /** More request headers (an edit's If-Match). */
  headers?: Record<string, string>
}

/** Fetches `/api{path}`; no connection is an ApiError NETWORK, an abort stays the AbortError it is. */
export async function send(
  path: string,
  { method = 'GET', body, signal, token, accept = 'application/json', headers: extra }: SendOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extra, Accept: accept }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
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
    throw new ApiError(0, 'NETWORK', NETWORK_MESSAGE)
  }
}

/** The answer's JSON, or undefined when it has none (a 204, a proxy's HTML page). */
export const readJson = (response: Response): Promise<unknown> => response.json().catch(() => undefined)

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isFieldError = (value: unknown): value is FieldError =>
  isObject(value) && typeof value.field === 'string' && typeof value.message === 'string'

/**
 * The ApiError for a failed answer: API.md's `{error:{code,message}}` with `errors` per field on a 422,
 * or the HTTP status when the body is not that shape.
 */
export function errorFrom(response: Response, json: unknown): ApiError {
  const error = isObject(json) ? json.error : undefined
  const errors = isObject(json) ? json.errors : undefined
  if (
    isObject(error) &&
    typeof error.code === 'string' &&
    typeof error.message === 'string' &&
    (errors === undefined || (Array.isArray(errors) && errors.every(isFieldError)))
  ) {
    return new ApiError(response.status, error.code, error.message, errors)
  }
  return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || 'Request failed')
}

/**
 * Calls `/api{path}` (a POST when there is a body) and returns the `data` of API.md's envelope as the
 * server sent it, unchecked: for the guest pages, which carry no validator. Throws ApiError.
 */
export async function requestData<T>(path: string, options: Omit<SendOptions, 'accept'> = {}): Promise<T> {
  const response = await send(path, { method: options.body === undefined ? 'GET' : 'POST', ...options })
  const json = await readJson(response)
  if (!response.ok) throw errorFrom(response, json)
  if (!isObject(json) || json.data === undefined) {
    throw new ApiError(response.status, 'BAD_RESPONSE', BAD_RESPONSE_MESSAGE)
  }
  return json.data as T
}
