// A worker process killed in the middle of a batch of pushes (decision 050): after a restart every push
// reaches its browser, and only one the push service took just before the kill, not yet recorded, goes
// again; a repeat carries the same Topic and notification tag, so the push service or the device keeps one.

import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildTestApp, TEST_SECRETS_KEY, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import {
  type Browser,
  newBrowser,
  newVapidKeys,
  type PushService,
  startPushService,
} from '../support/push-service.ts'

const serverDir = path.resolve(import.meta.dirname, '../../server')
/** Pushes a worker sends at once (the push queue's concurrency). */
const SENDS_AT_ONCE = 8
const vapid = newVapidKeys()
let t: TestApp
let service: PushService
const workers: ChildProcess[] = []

/** A real worker process, as production runs it. */
function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin/worker.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: t.database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: t.config.redis.prefix,
      LOG_LEVEL: 'silent',
      SECRETS_KEY: TEST_SECRETS_KEY,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_ALLOW_PRIVATE_TARGETS: 'true',
    },
    stdio: 'ignore',
  })
  workers.push(child)
  return child
}

beforeAll(async () => {
  service = await startPushService({ delayMs: 40 })
  t = await buildTestApp({
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_ALLOW_PRIVATE_TARGETS: 'true',
    },
    configure: (config) => {
      config.rateLimit.max = 100_000
    },
  })
})
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL')
  await t?.close()
  await service?.close()
})

describe('a push worker killed mid-batch', () => {
  it('pushes to every browser after a restart, repeating at most the pushes in flight at the kill', async () => {
    const lena = await makePlannedAgent(t.db, { firstName: 'Lena', role: 'Team Lead' })
    const members = [
      await makePlannedAgent(t.db, { firstName: 'Cora' }),
      await makePlannedAgent(t.db, { firstName: 'Max' }),
      await makePlannedAgent(t.db, { firstName: 'Pia' }),
    ]
    await makeTeam(t.db, lena, members)
    // Forty browsers each (phones, laptops, tablets): 120 pushes for one offer.
    const browsers: Browser[] = []
    for (const [i, member] of members.entries()) {
      for (let n = 0; n < 40; n++) {
        const browser = newBrowser(service, `m${i}-${n}`)
        const res = await t.call('POST', '/notificationmgmt/savePushSubscription', {
          token: member.token,
          body: browser.subscription,
        })
        expect(res.status).toBe(201)
        browsers.push(browser)
      }
    }
    const total = browsers.length
    const oh = await scheduleOpenHouse(t, lena)
    expect((await publish(t, lena, oh.id, 'Real Estate Team')).status).toBe(200)

    const first = startWorkerProcess()
    await expect
      .poll(() => service.received.length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThanOrEqual(25)
    first.kill('SIGKILL')
    await new Promise((r) => first.once('exit', r))
    const atKill = service.received.length
    expect(atKill).toBeLessThan(total)

    startWorkerProcess()
    const reached = () => browsers.filter((b) => service.at(b.path).length > 0).length
    await expect.poll(reached, { timeout: 60_000, interval: 200 }).toBe(total)
    const sent = async () =>
      (await t.db.selectFrom('pushMessage').select('id').where('status', '=', 'sent').execute()).length
    await expect.poll(sent, { timeout: 60_000, interval: 250 }).toBe(total)

    const repeats = service.received.length - total
    console.info(`killed after ${atKill} pushes taken; repeats after restart: ${repeats}`)
    expect(repeats).toBeLessThanOrEqual(SENDS_AT_ONCE)
    for (const b of browsers) {
      const got = service.at(b.path)
      // Every push decrypts for its browser to the same offer; a repeat has the same topic and tag.
      const payloads = got.map((r) => b.decrypt(r.body))
      expect(new Set(payloads.map((p) => `${p.openHouseId}/${p.tag}/${p.claimToken}`)).size).toBe(1)
      expect(new Set(got.map((r) => r.headers.topic)).size).toBe(1)
      expect(payloads[0].openHouseId).toBe(oh.id)
    }
  }, 150_000)
})
