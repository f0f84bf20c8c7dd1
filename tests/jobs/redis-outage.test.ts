import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { collect, connectSocket } from '../support/socket.ts'

// A Redis of this test's own, so it can be stopped and started again on the same port.
let port = 0
let redis: ChildProcess | undefined
let a: TestApp
let b: TestApp
let smtp: SmtpSink

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port: p } = server.address() as net.AddressInfo
  await new Promise((r) => server.close(r))
  return p
}

async function startRedis() {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy()
        resolve(true)
      })
      s.on('error', () => resolve(false))
    })
    if (up) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('redis-server did not start')
}

async function stopRedis() {
  const child = redis
  redis = undefined
  child?.kill('SIGKILL')
  if (child) await new Promise((r) => child.once('exit', r))
}

beforeAll(async () => {
  port = await freePort()
  await startRedis()
  smtp = await startSmtpSink()
  const env = { REDIS_URL: `redis://127.0.0.1:${port}`, SMTP_URL: smtp.url }
  a = await buildTestApp({ env })
  a.startWorker()
  b = await buildTestApp({ sameAs: a, env })
})
afterAll(async () => {
  await b.close()
  await a.close()
  await smtp.close()
  await stopRedis()
})

describe('Redis away for a while', () => {
  it('keeps the API answering, then sends every queued mail and tells clients to catch up', async () => {
    const listing = await makePlannedAgent(a.db)
    const watcher = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(a, listing)
    const socket = await connectSocket(b.url, { token: watcher.token })
    const published = collect(socket, 'opportunity.published')
    const resync = collect(socket, 'sync.required')

    await stopRedis()
    // PostgreSQL still answers: the API publishes and signs guests in.
    expect((await publish(a, listing, oh.id)).status).toBe(200)
    const guests = ['ana', 'ben', 'cy'].map((n) => `${n}-${randomUUID().slice(0, 6)}@example.com`)
    for (const email of guests) {
      const res = await a.call('POST', '/public/saveProspect', {
        body: {
          prospectFirstName: 'Guest',
          prospectLastName: 'Outage',
          prospectEmailId: email,
          prospectPhoneNumber: '404 555 0123',
          openHouseId: oh.id,
          clientRequestId: randomUUID(),
          emailConsent: 'true',
          consentText: 'The agent may email me.',
        },
      })
      expect(res.status).toBe(201)
    }
    expect((await a.call('GET', '/ready')).status).toBe(503)
    const waiting = await a.db.selectFrom('outbox').select('id').where('relayedAt', 'is', null).execute()
    expect(waiting.length).toBeGreaterThanOrEqual(3)

    await startRedis()
    for (const email of guests) await smtp.waitFor((m) => m.to.includes(email), 1, 20_000)
    // The watcher on the other process hears of the publish, or is told to refetch; either way it catches up.
    await expect.poll(() => published.length + resync.length, { timeout: 15_000 }).toBeGreaterThan(0)
    const offered = await b.call('GET', `/openhousemgmt/getAvailableToHostOH/${watcher.agent.id}`, {
      token: watcher.token,
    })
    expect(offered.body.data.map((o: { id: number }) => o.id)).toContain(oh.id)
    expect((await a.call('GET', '/ready')).status).toBe(200)
    socket.close()
  }, 60_000)
})
