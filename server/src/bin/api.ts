// The API and socket process of the production shape (docker compose runs workers apart). It runs
// only on PostgreSQL and Redis servers: without DATABASE_URL or REDIS_URL it refuses to start.
// OpenTelemetry, when set, starts before the app is imported, so it sees http, Fastify, pg and ioredis
// load (decision 052); unset, it is never loaded.
import { configOrExit, loadConfig, requireServers } from '../config.ts'
import { beforeExit } from '../shutdown.ts'

const { telemetry } = configOrExit(() => requireServers(loadConfig()))
if (telemetry.endpoint) {
  const { startTelemetry } = await import('../lib/telemetry.ts')
  beforeExit(startTelemetry(telemetry.endpoint, telemetry.serviceName ?? 'porchlight-api'))
}
await import('../compose/api-process.ts')
