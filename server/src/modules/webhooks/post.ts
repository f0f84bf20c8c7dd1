import { createHmac, randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { checkTarget, guardedLookup } from './targets.ts'

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

/**
 * The Standard Webhooks signature: HMAC-SHA256, keyed with the secret's base64 part decoded, over
 * `{id}.{timestamp}.{body}`, answered as `v1,<base64>`.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

export interface PostAnswer {
  status: number
  latencyMs: number
  /** The first 500 characters of the answer's body. */
  excerpt: string
}

const EXCERPT = 500

/**
 * POSTs a JSON body and answers the receiver's status, the time it took and an excerpt of its answer.
 * The target is checked (DNS-resolved) before the request and again by the socket's own lookup, so a
 * name cannot rebind to a private address in between; redirects are not followed.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostAnswer> {
  await checkTarget(url, opts.allowPrivate)
  const target = new URL(url)
  const client = target.protocol === 'https:' ? https : http
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Porchlight-Webhooks/1.0',
          ...headers,
        },
        lookup: guardedLookup(opts.allowPrivate) as never,
        timeout: opts.timeoutMs,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          if (text.length < EXCERPT) text += chunk
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            latencyMs: Math.round(performance.now() - started),
            excerpt: text.slice(0, EXCERPT),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)))
    req.on('error', reject)
    req.end(body)
  })
}
