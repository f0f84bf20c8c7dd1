import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { buildApp } from '@porchlight/server/src/compose/app.ts'
import { loadConfig } from '@porchlight/server/src/config.ts'
import { createPostgresDb } from '@porchlight/server/src/db/database.ts'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, inject } from 'vitest'
import { buildTestApp, TEST_SECRETS_KEY, type TestApp } from './app.ts'

/**
 * An API of its own reaching the test app's PostgreSQL through a TCP relay that counts the chunks the
 * API writes to it: each is a round trip (the API waits for the answer). It has one connection, so
 * every statement goes through it one after another.
 */
export async function appCountingRoundTrips(t: TestApp) {
  /** Chunks written so far, and as they stood when the API last sent an answer. */
  const writes = { count: 0, atAnswer: 0 }
  const target = new URL(t.database.url)
  const sockets = new Set<net.Socket>()
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    sockets.add(client).add(upstream)
    client.on('data', () => {
      writes.count++
    })
    for (const end of [client, upstream]) end.on('error', () => {})
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const url = new URL(t.database.url)
  url.hostname = '127.0.0.1'
  url.port = String((relay.address() as AddressInfo).port)
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL: inject('redisUrl'),
    LOG_LEVEL: 'silent',
    SECRETS_KEY: TEST_SECRETS_KEY,
    PORT: '0',
    HOST: '127.0.0.1',
  })
  config.redis.prefix = t.config.redis.prefix
  config.webDist = '/nonexistent'
  const handle = createPostgresDb(url.toString(), 1)
  const api: FastifyInstance = await buildApp(config, { db: handle })
  // What a request wrote before its answer, not what follows it (the statistics' coalesced read, 200 ms
  // after a sign-in, which a slow test process could otherwise count in with it).
  api.addHook('onSend', async () => {
    writes.atAnswer = writes.count
  })
  await api.listen({ port: 0, host: '127.0.0.1' })
  return {
    api,
    url: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`,
    writes,
    /** Waits until nothing has been written for 250 ms: what followed an answer is not counted. */
    async settled() {
      for (let last = -1; last !== writes.count; ) {
        last = writes.count
        await new Promise((r) => setTimeout(r, 250))
      }
    },
    async close() {
      await api.close()
      await handle.close()
      await new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        relay.close(() => resolve())
      })
    },
  }
}

/** For a test file: a test app, and an API of its own on its database counting its round trips. */
export function withRoundTripsCounted() {
  const made = {} as { t: TestApp; counted: Awaited<ReturnType<typeof appCountingRoundTrips>> }
  beforeAll(async () => {
    made.t = await buildTestApp()
    made.counted = await appCountingRoundTrips(made.t)
  })
  afterAll(async () => {
    await made.counted?.close()
    await made.t?.close()
  })
  return made
}
