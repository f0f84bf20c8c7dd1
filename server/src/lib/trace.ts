import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { symbols } from 'pino'

/**
 * What ties a guest's request to everything it caused (decision 047): its request id, and the W3C
 * trace context it came with. A request runs inside it; outbox rows written during the request keep it,
 * the relay hands it to BullMQ with the job, and the worker runs the job inside it again. Every log
 * line written meanwhile carries the request id (`traceLogFields`), whichever logger writes it.
 */
export interface TraceContext {
  requestId: string
  /** W3C traceparent (version 00): the caller's, or one of ours continuing it. */
  traceparent?: string
}

const storage = new AsyncLocalStorage<TraceContext>()

/** OpenTelemetry's span under way as a traceparent, when lib/telemetry.ts has started it (decision 052). */
let activeSpan: (() => string | undefined) | undefined
/** Runs work in a new span, a child of `parent` (a traceparent) or a trace's first; given its traceparent. */
type SpanRunner = <T>(
  name: string,
  parent: string | undefined,
  work: (traceparent?: string) => Promise<T>,
) => Promise<T>
let spanRunner: SpanRunner | undefined

export const trace = {
  current(): TraceContext | undefined {
    return storage.getStore()
  },
  /**
   * With OpenTelemetry exporting, a request's traceparent is its span's: the caller's trace (from a
   * trusted proxy) continued, or a new one, so the outbox and jobs carry the trace its spans are in.
   */
  useSpans(source: () => string | undefined, runner: SpanRunner): void {
    activeSpan = source
    spanRunner = runner
  },
  /** A job's span (with OpenTelemetry; otherwise just the work), in the trace of the request behind it. */
  inSpan<T>(
    name: string,
    parent: string | undefined,
    work: (traceparent?: string) => Promise<T>,
  ): Promise<T> {
    return spanRunner ? spanRunner(name, parent, work) : work()
  },
  activeSpan(): string | undefined {
    return activeSpan?.()
  },
  run<T>(context: TraceContext, work: () => T): T {
    return storage.run(context, work)
  },
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** A well-formed traceparent (W3C Trace Context, version 00), or undefined. */
export function readTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = TRACEPARENT.exec(value.trim().toLowerCase())
  // All-zero trace or parent ids are invalid by the standard.
  if (!match || /^0+$/.test(match[1] ?? '') || /^0+$/.test(match[2] ?? '')) return undefined
  return match[0]
}

/** The same trace, one step further: a new parent id for what this process does next (a job). */
export function childTraceparent(parent: string | undefined): string | undefined {
  const match = parent ? TRACEPARENT.exec(parent) : null
  if (!match) return undefined
  return `00-${match[1]}-${randomBytes(8).toString('hex')}-${match[3]}`
}

/** A request id accepted from a trusted proxy: letters, digits, dash, underscore; at most 64. */
export function readRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value) ? value : undefined
}

/**
 * Whether the peer that connected is a proxy we trust (TRUST_PROXY): only then are its
 * x-request-id and traceparent believed. A number of hops trusts the nearest peer.
 */
export function trustsPeer(setting: boolean | number | string[]): (address: string | undefined) => boolean {
  if (setting === true) return () => true
  if (setting === false || setting === 0) return () => false
  if (typeof setting === 'number') return () => true
  const ranges = setting.map((entry) => {
    const [base = '', bits] = entry.split('/')
    const address = ipaddr.parse(base)
    return [address, bits === undefined ? (address.kind() === 'ipv4' ? 32 : 128) : Number(bits)] as const
  })
  return (raw) => {
    if (!raw || isIP(raw) === 0) return false
    const parsed = ipaddr.parse(raw)
    // An IPv4 peer on a dual-stack socket reads ::ffff:a.b.c.d.
    const address =
      parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
        ? (parsed as ipaddr.IPv6).toIPv4Address()
        : parsed
    return ranges.some(([base, bits]) => address.kind() === base.kind() && address.match(base, bits))
  }
}

const chindings = symbols.chindingsSym as unknown as string

/**
 * pino's mixin: the request id (and trace id) of the work under way, on every line of any logger.
 * A request's own logger already binds `requestId`; it is not written twice.
 */
export function traceLogFields(_merge: object, _level: number, logger?: unknown): object {
  const context = storage.getStore()
  if (!context) return {}
  const bound = (logger as Record<string, unknown> | undefined)?.[chindings]
  const fields: Record<string, string> = {}
  if (typeof bound !== 'string' || !bound.includes('"requestId"')) fields.requestId = context.requestId
  const traceId = context.traceparent?.slice(3, 35)
  if (traceId) fields.traceId = traceId
  return fields
}
