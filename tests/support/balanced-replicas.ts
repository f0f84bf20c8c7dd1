import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, inject } from 'vitest'
import { deleteKeys } from './api.ts'
import { createTestDatabase, type TestDatabase } from './app.ts'
import { type Balancer, startBalancer } from './balancer.ts'
import { type ApiProcess, startProductionApi } from './porchlight-processes.ts'
import { stop } from './processes.ts'
import type { TestSocket } from './socket.ts'

/**
 * The compose file's production shape for a fault test: two API processes as the image runs them behind
 * deploy/balancer.conf in nginx, on a database of their own and this machine's Redis under a key prefix of
 * their own, started before the file's tests and stopped after them. `settings()` are a process's (this
 * machine's servers in place of the compose file's `postgres`, `redis` and `mail`, then `extra`), for a
 * replacement started in a test; a replacement is put in `apis`, and sockets in `sockets` close after the file.
 */
export function balancedReplicas(extra: Record<string, string> = {}) {
  const prefix = `b${randomBytes(5).toString('hex')}`
  let database: TestDatabase | undefined
  let balancer: Balancer | undefined
  const apis: ApiProcess[] = []
  const sockets: TestSocket[] = []
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the replicas start in beforeAll')
    return value
  }
  const settings = () => ({
    DATABASE_URL: started(database).url,
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: prefix,
    // The API process sends no mail (the workers do); nothing listens here.
    SMTP_URL: 'smtp://127.0.0.1:1',
    LOG_LEVEL: 'warn',
    ...extra,
  })

  beforeAll(async () => {
    database = await createTestDatabase()
    apis.push(...(await Promise.all([startProductionApi(settings()), startProductionApi(settings())])))
    balancer = await startBalancer(apis.map((a) => a.origin))
  }, 180_000)

  afterAll(async () => {
    for (const socket of sockets) socket.close()
    await balancer?.close()
    await Promise.all(apis.map((a) => stop(a.child)))
    await database?.drop()
    await deleteKeys(inject('redisUrl'), `${prefix}:*`)
  }, 60_000)

  return {
    apis,
    sockets,
    settings,
    get database() {
      return started(database)
    },
    get balancer() {
      return started(balancer)
    },
  }
}
