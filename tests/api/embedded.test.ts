import { randomBytes, randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { buildApp } from '@porchlight/server/src/compose/app.ts'
import { startWorkerRuntime } from '@porchlight/server/src/compose/worker.ts'
import { loadConfig } from '@porchlight/server/src/config.ts'
import type { DbHandle } from '@porchlight/server/src/db/database.ts'
import { createEmbeddedDb } from '@porchlight/server/src/db/embedded.ts'
import { migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { deleteKeys } from '../support/api.ts'
import { TEST_SECRETS_KEY } from '../support/app.ts'
import { daysFromNow, makePlannedAgent, propertyFields, scheduleFields } from '../support/factories.ts'
import { migrationsDir } from '../support/global-setup.ts'

// `pnpm start` with no DATABASE_URL runs on PGlite: one connection for the whole process, so any
// query waiting for a second connection inside a transaction would hang the app.
let handle: DbHandle
let app: FastifyInstance
let url: string
let worker: ReturnType<typeof startWorkerRuntime>
const prefix = `e${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  handle = await createEmbeddedDb('memory://')
  await migrateToLatest(handle.db, migrationsDir)
  const config = loadConfig({
    REDIS_URL: inject('redisUrl'),
    LOG_LEVEL: 'silent',
    PORT: '0',
    SECRETS_KEY: TEST_SECRETS_KEY,
  })
  config.redis.prefix = prefix
  config.webDist = '/nonexistent'
  app = await buildApp(config, { db: handle })
  await app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  worker = startWorkerRuntime(config, handle.db, pino({ level: 'silent' }))
}, 60_000)
afterAll(async () => {
  await worker?.close()
  await app?.close()
  await handle?.close()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
})

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  })
  return { status: res.status, body: await res.json() }
}

describe('on embedded PostgreSQL (PGlite)', () => {
  it('schedules, publishes, claims, signs a guest in and stores the mail', async () => {
    const listing = await makePlannedAgent(handle.db, { brokerFirmLicense: 'FIRM-EMB' })
    const host = await makePlannedAgent(handle.db, { brokerFirmLicense: 'FIRM-EMB' })
    const item = await call(
      'POST',
      '/reinventorymgmt/saveREInventory',
      {
        owningREAgentId: listing.agent.id,
        rePropertyDTO: propertyFields(),
        reInventoryPropertyStatus: 'Property Created',
      },
      listing.token,
    )
    expect(item.status).toBe(201)
    const oh = await call(
      'POST',
      '/openhousemgmt/saveOpenHouse',
      scheduleFields(item.body.data.reProperty.id, {
        scheduledDate: daysFromNow(4),
        autoCloneOpenHouseFlag: 'true',
      }),
      listing.token,
    )
    expect(oh.status).toBe(201)
    const id = oh.body.data.id
    expect(
      (
        await call(
          'POST',
          `/openhousemgmt/publishOpenHouseOpportunity/${id}/${listing.agent.id}/Open%20To%20All`,
          undefined,
          listing.token,
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await call(
          'PATCH',
          `/openhousemgmt/claimToHostOpenHouse/${id}/${host.agent.id}`,
          undefined,
          host.token,
        )
      ).status,
    ).toBe(200)
    const guestEmail = `guest-${randomUUID().slice(0, 6)}@example.com`
    const guest = await call('POST', '/public/saveProspect', {
      prospectFirstName: 'Pat',
      prospectLastName: 'Guest',
      prospectEmailId: guestEmail,
      prospectPhoneNumber: '404 555 0100',
      openHouseId: id,
      clientRequestId: randomUUID(),
      emailConsent: 'true',
      consentText: 'The agent may email me.',
    })
    expect(guest.status).toBe(201)
    // No SMTP_URL: the thank-you is kept for /dev/mailbox once the worker has taken it.
    await expect
      .poll(
        async () =>
          (
            await handle.db
              .selectFrom('mail')
              .select('status')
              .where('toAddress', '=', guestEmail)
              .executeTakeFirst()
          )?.status,
        {
          timeout: 10_000,
        },
      )
      .toBe('stored')
  }, 60_000)
})
