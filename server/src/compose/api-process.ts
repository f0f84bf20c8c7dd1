// The API process (bin/api.ts imports it once telemetry, if any, is under way).

import { configOrExit, loadConfig, requireServers } from '../config.ts'
import { serveMetrics } from '../http/observe.ts'
import { onShutdown } from '../shutdown.ts'
import { buildApp } from './app.ts'

const config = configOrExit(() => requireServers(loadConfig()))
const app = await buildApp(config)
await app.listen({ port: config.port, host: config.host })
app.deps.outbox.start(1000)
// Prometheus scrapes this process on a port of its own, which the balancer does not expose.
const metricsServer = config.metrics.port ? await serveMetrics(config.metrics.port, config.host) : null
onShutdown(app.log, config.shutdownGraceMs, async (graceMs) => {
  metricsServer?.close()
  await app.drain(graceMs)
})
