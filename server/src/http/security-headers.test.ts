import http from 'node:http'
import helmet from 'helmet'
import { describe, expect, it } from 'vitest'
import { headersSetOnce } from './security-headers.ts'

/** The headers a real response carries after `set` ran on it. */
function headersAfter(set: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const req = new http.IncomingMessage(null as never)
  const res = new http.ServerResponse(req)
  res.setHeader('x-powered-by', 'something')
  set(req, res)
  return res.getHeaders()
}

describe('security headers worked out once', () => {
  it("sets on an answer exactly what helmet's middleware sets, and removes what it removes", () => {
    const policy = helmet({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: null } },
    })
    const once = headersSetOnce(policy)
    const replayed = headersAfter((_req, res) => once(res))
    expect(replayed).toEqual(headersAfter((req, res) => policy(req, res, () => {})))
    expect(replayed['content-security-policy']).toMatch(/default-src 'self'/)
    expect(replayed['x-powered-by']).toBeUndefined()
  })

  it('refuses at start a policy that varies by request or answers later', () => {
    const nonce = helmet({
      contentSecurityPolicy: {
        directives: { scriptSrc: [(req) => `'nonce-${(req as http.IncomingMessage).headers.host}'`] },
      },
    })
    expect(() => headersSetOnce(nonce)).toThrow(/read the request's headers: they vary by request/)
    expect(() => headersSetOnce((_req, _res, next) => setTimeout(() => next(), 0))).toThrow(
      /did not finish at once/,
    )
    expect(() => headersSetOnce((_req, _res, next) => next(new Error('no')))).toThrow('no')
  })
})
