import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HelmetOptions } from 'helmet'

/** Our pages' content security policy, and helmet's other headers as it sets them by default. */
export function helmetPolicy(mapStyleUrl: string | undefined): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // react-aria positions overlays with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", ...(mapStyleUrl ? [new URL(mapStyleUrl).origin] : [])],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  }
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void
type HeaderValue = string | number | readonly string[]

/**
 * The headers a middleware (helmet) sets on every answer, worked out once at start (decision 066): it
 * runs once against a response that records what it sets and removes, and each answer then gets that
 * list in one loop, without a dozen closures a request. Only for a policy that does not vary by request:
 * the recording lets the middleware touch nothing but `setHeader` and `removeHeader`, so a policy that
 * reads the request or the response (a nonce, say) fails here at start and has to stay a middleware.
 */
export function headersSetOnce(middleware: Middleware): (res: ServerResponse) => void {
  const set: Array<[string, HeaderValue]> = []
  const removed: string[] = []
  const recording = {
    setHeader(name: string, value: HeaderValue) {
      set.push([name, value])
      return recording
    },
    removeHeader(name: string) {
      removed.push(name)
    },
  }
  const only = <T extends object>(target: T, what: string) =>
    new Proxy(target, {
      get(t, key) {
        if (Object.hasOwn(t, key)) return t[key as keyof T]
        throw new Error(`The security headers read the ${what}'s ${String(key)}: they vary by request`)
      },
    })
  let finished: { err: unknown } | undefined
  middleware(
    only({}, 'request') as IncomingMessage,
    only(recording, 'response') as unknown as ServerResponse,
    (err) => {
      finished = { err }
    },
  )
  if (!finished) throw new Error('The security headers did not finish at once')
  if (finished.err) throw finished.err
  return (res) => {
    for (const name of removed) res.removeHeader(name)
    for (const [name, value] of set) res.setHeader(name, value)
  }
}
