// `pnpm start` with WEB_CONCURRENCY=2 when an API process dies: the supervisor starts another in its
// place, the official client's sockets (default options, reconnecting) that were on it reconnect, and
// every one of them hears the next guest sign-in. New visitors connect meanwhile and after. The new one
// runs behind the workers' process on a busy machine, as the one it replaces did.
import { randomBytes, randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { type ApiCall, apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import {
  childProcesses,
  freePort,
  PNPM_START_ARGS,
  priorities,
  type StartedProcess,
  startProcess,
  stop,
} from '../support/processes.ts'
import { connectWithDefaults, nextEvent, type TestSocket } from '../support/socket.ts'

const root = path.resolve(import.meta.dirname, '../..')
const prefix = `f${randomBytes(5).toString('hex')}`
let database: TestDatabase
let started: StartedProcess
let origin: string
let call: ApiCall
const sockets: TestSocket[] = []

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
  // Three processes compile the server at once: on a busy 2-core machine, up to a minute and more.
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'), 100_000)
}, 150_000)

afterAll(async () => {
  for (const socket of sockets) socket.close()
  if (started) await stop(started.child)
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

const from = (i: number) => `127.0.0.${i + 2}`

/** The API processes: the supervisor's children running start.ts (not its worker, nor tsx's esbuild). */
const apiProcesses = () => childProcesses(started.child.pid as number, 'bin/start.ts')
/** The workers' process, the supervisor's child running bin/worker.ts. */
const worker = () => childProcesses(started.child.pid as number, 'bin/worker.ts')[0] as number

async function signIn(openHouseId: number): Promise<number> {
  const res = await call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Ravi',
      prospectLastName: 'Okafor',
      prospectEmailId: `ravi-${randomUUID()}@example.com`,
      prospectPhoneNumber: '404 555 0171',
      openHouseId,
      clientRequestId: randomUUID(),
    },
  })
  return res.status
}

it('replaces a killed API process; the sockets that were on it reconnect and hear the next sign-in', async () => {
  const host = await makePlannedAgent(database.handle.db)
  const oh = await scheduleOpenHouse({ call }, host, { publishLevel: 'Hosting Myself' })
  for (let i = 0; i < 10; i++) {
    sockets.push(await connectWithDefaults(origin, { openHouseId: oh.id }, from(i), { reconnection: true }))
  }
  const before = apiProcesses()
  expect(before).toHaveLength(2)
  const dropped: TestSocket[] = []
  for (const socket of sockets) socket.once('disconnect', () => dropped.push(socket))
  process.kill(before[0] as number, 'SIGKILL')
  await started.waitUntil('another API process', () => started.output().includes('starting another'))
  await started.waitUntil('two API processes again', () => {
    const now = apiProcesses()
    return now.length === 2 && !now.includes(before[0] as number)
  })
  // The replacement, started by the supervisor at its priority, lowers its own as it starts: the
  // workers keep precedence over both API processes.
  await started.waitUntil(
    'the workers ahead of both API processes',
    () => priorities(worker(), apiProcesses()).workerAhead,
  )
  // Ten addresses over two processes: some were on the one killed.
  expect(dropped.length).toBeGreaterThan(0)
  await started.waitUntil('every socket connected again', () => sockets.every((s) => s.connected))
  const heard = sockets.map((s) => nextEvent(s, 'attendee.added', 10_000))
  expect(await signIn(oh.id)).toBe(201)
  for (const event of await Promise.all(heard)) expect(event.data.openHouseId).toBe(oh.id)
  // Visitors new to the server, with the client's defaults, connect to the processes running now.
  const fresh = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) => connectWithDefaults(origin, { openHouseId: oh.id }, from(i + 20))),
  )
  sockets.push(...fresh.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])))
  expect(fresh.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).toEqual([])
}, 120_000)
