// A push service of the test's own (RFC 8030): a local HTTP server whose addresses the test's "browsers"
// subscribe with. Each browser has an ECDH P-256 key pair and an auth secret it generated, as a browser
// does, so what arrives decrypts (RFC 8291) only for it; the VAPID header (RFC 8292) is verified against
// the server's public key.

import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
// @ts-expect-error http_ece ships no types
import ece from 'http_ece'

export interface PushReceived {
  path: string
  headers: http.IncomingHttpHeaders
  body: Buffer
  at: number
}

/** `delayMs`: each push is recorded as it arrives and answered that much later (a slow push service). */
export async function startPushService(options: { delayMs?: number } = {}) {
  const received: PushReceived[] = []
  /** Status to answer per path (default 201, as push services do); a list is answered in turn, then 201. */
  const answers = new Map<
    string,
    | { status: number; headers?: Record<string, string> }
    | Array<{ status: number; headers?: Record<string, string> }>
  >()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? ''
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() })
      const planned = answers.get(path)
      const answer = (Array.isArray(planned) ? planned.shift() : planned) ?? { status: 201 }
      const send = () => res.writeHead(answer.status, answer.headers ?? {}).end()
      if (options.delayMs) setTimeout(send, options.delayMs)
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    answers,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
export type PushService = Awaited<ReturnType<typeof startPushService>>

/** A browser's subscription: its keys, as PushSubscription.toJSON() gives them. */
export function newBrowser(service: PushService, name: string) {
  const ecdh: ECDH = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  const path = `/push/${name}-${randomBytes(4).toString('hex')}`
  return {
    path,
    subscription: {
      endpoint: `${service.url}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
    /** The push's payload, decrypted with this browser's private key and auth secret (aes128gcm). */
    // biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field.
    decrypt(body: Buffer): any {
      const plain: Buffer = ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth })
      return JSON.parse(plain.toString('utf8'))
    },
  }
}
export type Browser = ReturnType<typeof newBrowser>

/** A VAPID key pair as VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY take it. */
export function newVapidKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const priv = ecdh.getPrivateKey()
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - priv.length), priv]).toString('base64url'),
  }
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does: the key is the server's, the
 * JWT's ES256 signature verifies with it, its audience is this push service's origin and it has not
 * expired. Answers the JWT's claims.
 */
export function verifyVapid(header: string | undefined, publicKey: string, audience: string) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '')
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`)
  const [, jwt, k] = match as unknown as [string, string, string]
  if (k !== publicKey) throw new Error('the VAPID key is not the server’s')
  const [h, p, s] = jwt.split('.') as [string, string, string]
  const raw = Buffer.from(publicKey, 'base64url')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  })
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  )
  if (!ok) throw new Error('the VAPID signature does not verify')
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'))
  if (JSON.parse(Buffer.from(h, 'base64url').toString('utf8')).alg !== 'ES256') throw new Error('not ES256')
  if (claims.aud !== audience) throw new Error(`audience ${claims.aud}, not ${audience}`)
  if (!(claims.exp * 1000 > Date.now())) throw new Error('the VAPID token has expired')
  return claims as { aud: string; exp: number; sub: string }
}
