import type { Config } from '../../config.ts'

// Follow Up Boss's API as Porchlight calls it: HTTP Basic auth (the agent's API key as the user name, an
// empty password) and, as it asks of registered integrations, X-System and X-System-Key.

export type FubSettings = Pick<Config['fub'], 'apiUrl' | 'system' | 'systemKey' | 'timeoutMs'>

export interface FubAnswer {
  status: number
  /** Follow Up Boss's own words for a refusal (its `errorMessage`), or the start of its answer. */
  reason: string
  /** Retry-After, in milliseconds from now, when it was given and readable. */
  retryAfterMs: number | null
}

/** What an answer means for the lead and for the key (decision 041). */
export type FubOutcome =
  | { kind: 'delivered' }
  /** 204: Follow Up Boss took the event and dropped it (the lead flow for this source is archived). */
  | { kind: 'ignored' }
  /** 401/403: the key is refused; every lead waits for a new key, none is tried again before it. */
  | { kind: 'rejected' }
  /** 429: wait as long as it asked. */
  | { kind: 'throttled'; waitMs: number | null }
  /** 5xx, a timeout, no answer: wait on the schedule, hours in all. */
  | { kind: 'unavailable' }
  /** Another 4xx: this event as it stands will not be taken; it waits for the agent's retry. */
  | { kind: 'refused' }

export function classify(status: number): FubOutcome['kind'] {
  if (status === 204) return 'ignored'
  if (status >= 200 && status <= 299) return 'delivered'
  if (status === 401 || status === 403) return 'rejected'
  if (status === 429) return 'throttled'
  if (status >= 500 || status === 408) return 'unavailable'
  return 'refused'
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from `now`. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

function reasonOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    for (const field of ['errorMessage', 'message', 'error']) {
      const value = body[field]
      if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 300)
    }
  } catch {
    // Not JSON: its text, if any, is the reason.
  }
  const plain = text.replace(/\s+/g, ' ').trim().slice(0, 300)
  return plain || `Follow Up Boss answered ${status}`
}

/** One authenticated call; throws when Follow Up Boss does not answer within the timeout. */
export async function callFub(
  settings: FubSettings,
  apiKey: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<FubAnswer> {
  const res = await fetch(`${settings.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`,
      'x-system': settings.system,
      ...(settings.systemKey ? { 'x-system-key': settings.systemKey } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      accept: 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(settings.timeoutMs),
  })
  const ok = res.status >= 200 && res.status <= 299
  let text = ''
  if (ok) await res.body?.cancel()
  else text = (await res.text()).slice(0, 2000)
  return {
    status: res.status,
    reason: ok ? '' : reasonOf(res.status, text),
    retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
  }
}
