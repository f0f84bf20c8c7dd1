import { Redis } from 'ioredis'

// Helpers with no test runner in them, so the benchmarks use them too.

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field.
export interface ApiAnswer<T = any> {
  status: number
  body: T
}

export type ApiCall = (
  method: string,
  path: string,
  options?: { body?: unknown; token?: string },
) => Promise<ApiAnswer>

/** Calls the API at `url` as the web app does; answers the status and the parsed body. */
export function apiCaller(url: string): ApiCall {
  return async (method, path, { body, token } = {}) => {
    const headers: Record<string, string> = {}
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (token) headers.authorization = `Bearer ${token}`
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
}

/** Removes the keys matching `pattern` (a test's or process's prefix) from the Redis at `url`. */
export async function deleteKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url)
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
      if (keys.length) await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}
