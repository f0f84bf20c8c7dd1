// The background worker process: BullMQ workers and the outbox relay. Like the API it runs only on
// PostgreSQL and Redis servers: without DATABASE_URL or REDIS_URL it refuses to start.
// OpenTelemetry, when set, starts before the workers are imported (decision 052); unset, never loaded.
import { configOrExit, loadConfig, requireServers } from '../config.ts'
import { beforeExit } from '../shutdown.ts'

const { telemetry } = configOrExit(() => requireServers(loadConfig()))
if (telemetry.endpoint) {
  const { startTelemetry } = await import('../lib/telemetry.ts')
  beforeExit(startTelemetry(telemetry.endpoint, telemetry.serviceName ?? 'porchlight-worker'))
}
await import('../compose/worker-process.ts')
