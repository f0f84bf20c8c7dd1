// `pnpm start` with WEB_CONCURRENCY: several API processes on one port, as on a machine with several
// cores. Every process answers, an event made in one reaches sockets held by the others, the official
// socket.io client connects with its default options (long-polling first), and SIGTERM stops them all.
// Each socket comes from a loopback address of its own (127.0.0.2, …): visitors of their own.
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type ApiCall, apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import {
  childProcesses,
  freePort,
  PNPM_START_ARGS,
  type StartedProcess,
  startProcess,
  stop,
} from '../support/processes.ts'
import { connectSocket, connectWithDefaults, nextEvent, type TestSocket } from '../support/socket.ts'

const root = path.resolve(import.meta.dirname, '../..')
const prefix = `w${randomBytes(5).toString('hex')}`
let database: TestDatabase
let started: StartedProcess
let origin: string
const sockets: TestSocket[] = []

const ready = () =>
  fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status === 200,
    () => false,
  )

let call: ApiCall

/** The i-th visitor's own loopback address. */
const from = (i: number) => `127.0.0.${i + 2}`

async function signIn(openHouseId: number): Promise<number> {
  const res = await call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Dana',
      prospectLastName: 'Whitfield',
      prospectEmailId: `dana-${randomUUID()}@example.com`,
      prospectPhoneNumber: '404 555 0166',
      openHouseId,
      clientRequestId: randomUUID(),
    },
  })
  return res.status
}

beforeAll(async () => {
  database = await createTestDatabase()
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  call = apiCaller(origin)
  started = startProcess('pnpm start', process.execPath, [...PNPM_START_ARGS], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: '2',
    },
  })
  // The supervisor prints its banner once every API process listens.
  // Three processes compile the server at once: on a busy 2-core machine, up to a minute and more.
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'), 100_000)
  await started.waitUntil('a ready answer', ready)
}, 150_000)

afterAll(async () => {
  for (const socket of sockets) socket.close()
  if (started) await stop(started.child)
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

describe('pnpm start with WEB_CONCURRENCY=2', () => {
  it('says how many API processes run, and each guest sign-in reaches the board on every process', async () => {
    expect(started.output()).toContain('2 API processes (WEB_CONCURRENCY)')
    const host = await makePlannedAgent(database.handle.db)
    const oh = await scheduleOpenHouse({ call }, host, { publishLevel: 'Hosting Myself' })
    // Six guest pages from six addresses land on both processes (each address keeps to one).
    const pages: TestSocket[] = []
    for (let i = 0; i < 6; i++) pages.push(await connectSocket(origin, { openHouseId: oh.id }, from(i)))
    sockets.push(...pages)
    for (let i = 0; i < 3; i++) {
      const heard = pages.map((s) => nextEvent(s, 'attendee.added'))
      expect(await signIn(oh.id)).toBe(201)
      for (const event of await Promise.all(heard)) expect(event.data.openHouseId).toBe(oh.id)
    }
  }, 60_000)

  it("starts each API process and the workers' process with the server's V8 flags", () => {
    const supervisor = started.child.pid as number
    const api = childProcesses(supervisor, 'bin/start.ts')
    const worker = childProcesses(supervisor, 'bin/worker.ts')
    expect(api).toHaveLength(2)
    expect(worker).toHaveLength(1)
    for (const pid of [...api, ...worker]) {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      for (const flag of SERVER_NODE_FLAGS) expect(args, `process ${pid}`).toContain(flag)
    }
  })

  it('connects 10 of 10 official clients with default options, and each hears a guest sign-in', async () => {
    const host = await makePlannedAgent(database.handle.db)
    const oh = await scheduleOpenHouse({ call }, host, { publishLevel: 'Hosting Myself' })
    // Long-polling first: every request of a session must reach the process that opened it, and the
    // upgrade to a WebSocket too. Before, 0 to 5 of 10 connected; the others were told "Session ID unknown".
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => connectWithDefaults(origin, { openHouseId: oh.id }, from(i))),
    )
    const connected = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
    sockets.push(...connected)
    expect(outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).toEqual([])
    const heard = connected.map((s) => nextEvent(s, 'attendee.added'))
    expect(await signIn(oh.id)).toBe(201)
    for (const event of await Promise.all(heard)) expect(event.data.openHouseId).toBe(oh.id)
  }, 60_000)

  it('stops every process on SIGTERM, within 10 s, answering the request under way, and the port closes', async () => {
    // A guest's sign-in whose body is still arriving when SIGTERM comes gets its answer.
    const port = Number(new URL(origin).port)
    const body = JSON.stringify({ prospectFirstName: 'Ivo' })
    const conn = net.connect({ port, host: '127.0.0.1', localAddress: from(3) })
    let answer = ''
    conn.on('data', (chunk) => {
      answer += chunk
    })
    const closed = new Promise((resolve) => conn.once('close', resolve))
    conn.on('error', () => {})
    await new Promise((resolve) => conn.once('connect', resolve))
    conn.write(
      `POST /api/public/saveProspect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    )
    await new Promise((r) => setTimeout(r, 300))
    const begun = Date.now()
    const exited = new Promise<number | null>((resolve) =>
      started.child.once('exit', (code) => resolve(code)),
    )
    started.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 1000))
    conn.end(body.slice(5))
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 422 /)
    expect(await exited).toBe(0)
    expect(Date.now() - begun).toBeLessThan(10_000)
    // The supervisor exits only once its API processes have: nothing answers on the port any more.
    expect(await ready()).toBe(false)
  }, 30_000)
})
