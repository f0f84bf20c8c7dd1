// OpenTelemetry export (decision 052), loaded by the process entry points only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, and before anything it instruments (http, Fastify, pg, ioredis)
// is imported: those are imported after it, by a dynamic import, so without the setting none of this
// is loaded and nothing is patched.
import { register } from 'node:module'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import {
  context,
  trace as otelTrace,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
} from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { trace } from './trace.ts'

// Our bundles import pg, ioredis and fastify as ES modules: the instrumentations see them only through
// this loader hook (import-in-the-middle), which must be in place before they are imported.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)

/**
 * Starts the SDK: spans of incoming and outgoing HTTP (W3C traceparent and tracestate, taken from a
 * trusted proxy only: http/observe.ts drops them from others), Fastify's hooks and routes, PostgreSQL
 * statements and Redis commands, sent in batches to `${endpoint}/v1/traces` as OTLP/HTTP JSON. The
 * service name is OTEL_SERVICE_NAME when set (config.ts); the SDK's own OTEL_* settings (OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER,
 * OTEL_BSP_*) apply. Returns the function that sends what is left and stops it.
 */
export function startTelemetry(endpoint: string, serviceName: string): () => Promise<void> {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      // Statements' text, never their parameters (a guest's name or email).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
    ],
  })
  sdk.start()
  const tracer = otelTrace.getTracer('porchlight')
  const active = () => {
    const span = otelTrace.getActiveSpan()?.spanContext()
    if (!span || !otelTrace.isSpanContextValid(span)) return undefined
    return `00-${span.traceId}-${span.spanId}-0${span.traceFlags & 1}`
  }
  trace.useSpans(active, (name, parent, work) => {
    const from = parent ? propagation.extract(ROOT_CONTEXT, { traceparent: parent }) : context.active()
    return tracer.startActiveSpan(name, { kind: SpanKind.CONSUMER }, from, async (span) => {
      try {
        return await work(active())
      } catch (err) {
        span.recordException(err as Error)
        span.setStatus({ code: SpanStatusCode.ERROR })
        throw err
      } finally {
        span.end()
      }
    })
  })
  return () => sdk.shutdown()
}
