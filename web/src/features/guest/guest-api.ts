import type { GuestSignInBody, PublicAttendee, PublicOpenHouse, SaveFeedbackBody } from '@porchlight/shared'

// The guest pages' calls (SPEC §7 "Public"): plain fetch, no token, no zod — the guest app must stay
// light. The server validates every body and answers API.md's envelope.

export interface GuestFieldError {
  field: string
  message: string
}

export class GuestApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: GuestFieldError[] = [],
  ) {
    super(message)
  }

  /** Worth trying again later with the same body: no connection, a gateway hiccup or the rate limit. */
  get retryable(): boolean {
    return (
      this.status === 0 ||
      this.status === 429 ||
      this.status === 502 ||
      this.status === 503 ||
      this.status === 504
    )
  }
}

const NETWORK_MESSAGE = 'Could not reach Porchlight. Check your connection and try again.'

interface ErrorBody {
  error?: { code?: string; message?: string }
  errors?: GuestFieldError[]
}

async function call<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response
  try {
    response = await fetch(`/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    })
  } catch (cause) {
    if (signal?.aborted) throw cause
    throw new GuestApiError(0, 'NETWORK', NETWORK_MESSAGE)
  }
  const json = (await response.json().catch(() => undefined)) as (ErrorBody & { data?: T }) | undefined
  if (!response.ok) {
    throw new GuestApiError(
      response.status,
      json?.error?.code ?? `HTTP_${response.status}`,
      json?.error?.message ?? (response.statusText || 'Request failed'),
      Array.isArray(json?.errors) ? json.errors : [],
    )
  }
  if (!json || json.data === undefined)
    throw new GuestApiError(response.status, 'BAD_RESPONSE', 'Unreadable answer')
  return json.data
}

export const getPublicOpenHouse = (id: number, signal?: AbortSignal) =>
  call<PublicOpenHouse>(`/public/getOpenHouseDetails/${id}`, undefined, signal)

export const getPublicAttendees = (openHouseId: number, signal?: AbortSignal) =>
  call<PublicAttendee[]>(`/public/getOpenHouseAttendees/${openHouseId}?limit=200`, undefined, signal)

/** The sign-in answers the prospect and the guest token its feedback must carry (guest-tokens.ts). */
export const saveGuestProspect = (body: GuestSignInBody) =>
  call<{ id: number; guestToken: string }>('/public/saveProspect', body)

export const saveGuestFeedback = (body: SaveFeedbackBody) =>
  call<{ id: number }>('/public/saveOpenHouseFeedback', body)
