// `pnpm start` with WEB_CONCURRENCY: several API processes on one port, as on a machine with several
// cores. Every process answers, an event made in one reaches sockets held by the others, and SIGTERM
// stops them all.
import { randomBytes, randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type ApiCall, apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { freePort, type StartedProcess, startProcess, stop } from '../support/processes.ts'
import { connectSocket, nextEvent, type TestSocket } from '../support/socket.ts'

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

beforeAll(async () => {
  database = await createTestDatabase()
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  call = apiCaller(origin)
  started = startProcess('pnpm start', process.execPath, ['--import', 'tsx', 'server/src/bin/start.ts'], {
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
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'))
  await started.waitUntil('a ready answer', ready)
}, 90_000)

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
    // Connections are handed to the processes in turn: six guest pages land on both.
    for (let i = 0; i < 6; i++) sockets.push(await connectSocket(origin, { openHouseId: oh.id }))
    for (let i = 0; i < 3; i++) {
      const heard = sockets.map((s) => nextEvent(s, 'attendee.added'))
      const res = await call('POST', '/public/saveProspect', {
        body: {
          prospectFirstName: 'Dana',
          prospectLastName: 'Whitfield',
          prospectEmailId: `dana-${randomUUID()}@example.com`,
          prospectPhoneNumber: '404 555 0166',
          openHouseId: oh.id,
          clientRequestId: randomUUID(),
        },
      })
      expect(res.status).toBe(201)
      for (const event of await Promise.all(heard)) expect(event.data.openHouseId).toBe(oh.id)
    }
  }, 60_000)

  it('stops every process on SIGTERM, within 10 s, and the port closes', async () => {
    const begun = Date.now()
    const exited = new Promise<number | null>((resolve) =>
      started.child.once('exit', (code) => resolve(code)),
    )
    started.child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(Date.now() - begun).toBeLessThan(10_000)
    // The supervisor exits only once its API processes have: nothing answers on the port any more.
    expect(await ready()).toBe(false)
  }, 30_000)
})
