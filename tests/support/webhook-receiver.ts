// A real HTTP receiver for outgoing webhooks and the Follow Up Boss connector, in the test's process:
// it records every request and answers the next status of `answers` (then 200), `delayMs` later. An
// answer may carry headers and a body of its own (Follow Up Boss's Retry-After, its error message), and
// `byPath` answers requests to one path before `answers` does.

import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestApp } from './app.ts'
import { prospectOfVisit } from './open-houses.ts'

export interface Received {
  path: string
  method: string
  headers: http.IncomingHttpHeaders
  body: string
  /** Date.now() when it arrived. */
  at: number
}

export type Answer = number | { status: number; headers?: Record<string, string>; body?: string }

export async function startReceiver(options: { delayMs?: number } = {}) {
  const received: Received[] = []
  const answers: Answer[] = []
  const byPath: Record<string, Answer[]> = {}
  let delayMs = options.delayMs ?? 0
  const server = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => {
      body += c
    })
    req.on('end', () => {
      const path = req.url ?? ''
      received.push({ path, method: req.method ?? '', headers: req.headers, body, at: Date.now() })
      const next = byPath[path]?.shift() ?? answers.shift() ?? 200
      const { status, headers = {}, body: text } = typeof next === 'number' ? { status: next } : next
      const answer = () =>
        res
          .writeHead(status, { 'content-type': 'text/plain', ...headers })
          .end(text ?? (status === 204 ? undefined : status < 300 ? 'ok thanks' : 'boom'))
      // A slow receiver: the request is recorded as it arrives, answered `delayMs` later.
      if (delayMs > 0) setTimeout(answer, delayMs)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answers,
    byPath,
    /** From now on, each request is answered this long after it arrived. */
    setDelay(ms: number) {
      delayMs = ms
    },
    /** The requests that came to this path. */
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** Verifies a request as a receiver would, with the published secret (Standard Webhooks). */
export function verified(r: Received, secret: string): boolean {
  const id = String(r.headers['webhook-id'])
  const timestamp = String(r.headers['webhook-timestamp'])
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest()
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [version, value] = sig.split(',')
      const given = Buffer.from(value ?? '', 'base64')
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
    })
}

/** Waits for `probe` to answer something truthy, polling every 50 ms. */
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  ms = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * A consenting guest, Gina Visitor, signs in at the open house: the sign-in every webhook event starts
 * from. `id` is the visit's (what the sign-in answers), `prospectId` the agent's prospect behind it.
 */
export async function guestSignIn(
  t: Pick<TestApp, 'call' | 'db'>,
  openHouseId: number,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; guestToken: string; prospectId: number }> {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Gina',
      prospectLastName: 'Visitor',
      prospectEmailId: `gina-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
      emailConsent: true,
      consentText: 'Email me about homes like this one.',
      homeBuyingTimelines: '1-3 Months',
      ...extra,
    },
  })
  if (res.status !== 201) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`)
  return { ...res.body.data, prospectId: await prospectOfVisit(t, res.body.data.id) }
}
