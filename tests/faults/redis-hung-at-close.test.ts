// An API process stopped while its Redis hangs (a deploy during a Redis stall): the socket adapter
// unsubscribes as the process closes, and nobody awaits those commands. When the connection ends
// without their answers they are dropped; nothing may be left rejected with nobody to hear it, which
// would end a process with Node's unhandled-rejection crash instead of its clean exit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'

let t: TestApp
let redis: OwnRedis

beforeAll(async () => {
  t = await buildTestApp()
  redis = await startOwnRedis()
})
afterAll(async () => {
  await t?.close()
  await redis?.stop()
})

describe('an API process closed while its Redis hangs', () => {
  it('closes without a rejection nobody hears', async () => {
    const unheard: unknown[] = []
    const hear = (reason: unknown) => unheard.push(reason)
    process.on('unhandledRejection', hear)
    try {
      const app = await buildTestApp({ sameAs: t, env: { REDIS_URL: redis.url } })
      redis.pause()
      await app.close()
      // The hung Redis is killed (its supervisor restarts it): the closed connections end without an
      // answer, and what was still waiting on them is dropped now. Rejections are reported after the
      // microtasks of the turn that made them.
      await redis.stop()
      await new Promise((resolve) => setTimeout(resolve, 500))
      await redis.start()
    } finally {
      redis.resume()
      process.off('unhandledRejection', hear)
    }
    expect(unheard.map((reason) => String(reason))).toEqual([])
  }, 60_000)
})
