// Where the tests find PostgreSQL and Redis: TEST_DATABASE_URL / TEST_REDIS_URL when set, else the
// local servers on their default ports, else containers when a Docker engine answers.
import net from 'node:net'

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres'
const LOCAL_REDIS = 'redis://127.0.0.1:6379'

function answers(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || fallbackPort) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

export interface TestServices {
  /** An admin connection URL (any database) on the server the tests use. */
  pgAdminUrl: string
  redisUrl: string
  stop(): Promise<void>
}

export async function resolveServices(env = process.env): Promise<TestServices> {
  const stops: Array<() => Promise<unknown>> = []
  let pgAdminUrl = env.TEST_DATABASE_URL
  let redisUrl = env.TEST_REDIS_URL
  if (!pgAdminUrl && (await answers(LOCAL_PG, 5432))) pgAdminUrl = LOCAL_PG
  if (!redisUrl && (await answers(LOCAL_REDIS, 6379))) redisUrl = LOCAL_REDIS
  if (!pgAdminUrl || !redisUrl) {
    const { GenericContainer, Wait } = await import('testcontainers').catch(() => {
      throw new Error(
        'No PostgreSQL/Redis found: set TEST_DATABASE_URL and TEST_REDIS_URL or start them locally',
      )
    })
    try {
      if (!pgAdminUrl) {
        const pg = await new GenericContainer('postgres:16-alpine')
          .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
          .withExposedPorts(5432)
          .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
          .start()
        stops.push(() => pg.stop())
        pgAdminUrl = `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`
      }
      if (!redisUrl) {
        const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start()
        stops.push(() => redis.stop())
        redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`
      }
    } catch (err) {
      throw new Error(
        `No PostgreSQL/Redis answering locally and no container runtime: set TEST_DATABASE_URL and TEST_REDIS_URL (${String(err)})`,
      )
    }
  }
  return {
    pgAdminUrl,
    redisUrl,
    stop: async () => {
      await Promise.all(stops.map((s) => s()))
    },
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}
