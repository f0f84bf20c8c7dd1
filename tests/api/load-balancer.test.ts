import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { type Balancer, startBalancer } from '../support/balancer.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { connectSocket, connectWithDefaults, nextEvent, type TestSocket } from '../support/socket.ts'

// The production shape of docker-compose.yml: two API replicas behind its nginx balancer, trusting that
// one hop. Each visitor comes from an address of its own on the loopback network (127.0.0.2, 127.0.0.3, …).
const env = { TRUST_PROXY: '1', GUEST_RATE_LIMIT_PER_MINUTE: '2' }
let t: TestApp
let second: TestApp
let balancer: Balancer
beforeAll(async () => {
  t = await buildTestApp({ env })
  second = await buildTestApp({ env, sameAs: t })
  balancer = await startBalancer([t.url, second.url])
})
afterAll(async () => {
  await balancer?.close()
  await second?.close()
  await t?.close()
})

/** A POST from `visitor`'s own address, through the balancer. */
function postFrom(
  visitor: string,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: { id?: number } } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${balancer.url}${route}`,
      { method: 'POST', localAddress: visitor, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = ''
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

describe('behind the load balancer', () => {
  it('counts each visitor apart, whatever address a visitor writes in X-Forwarded-For', async () => {
    const statuses: number[] = []
    for (const forged of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      statuses.push(
        (await postFrom('127.0.0.2', '/api/public/saveProspect', {}, { 'x-forwarded-for': forged })).status,
      )
    }
    // Naming another address each time does not escape the visitor's limit of 2 a minute.
    expect(statuses).toEqual([422, 422, 429])
    // Another visitor behind the same balancer has a limit of its own.
    const other = [
      await postFrom('127.0.0.3', '/api/public/saveProspect', {}),
      await postFrom('127.0.0.3', '/api/public/saveProspect', {}),
    ]
    expect(other.map((r) => r.status)).toEqual([422, 422])
  })

  it('carries a guest sign-in and the live socket that hears it', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    // The guest page's socket goes through the balancer (a WebSocket upgrade).
    const socket = await connectSocket(balancer.url, { openHouseId: oh.id })
    try {
      const heard = nextEvent(socket, 'attendee.added')
      const res = await postFrom(
        '127.0.0.4',
        '/api/public/saveProspect',
        guestFields(oh.id, { prospectFirstName: 'Lena', prospectLastName: 'Balancer' }),
      )
      expect(res.status).toBe(201)
      expect((await heard).data).toMatchObject({ openHouseId: oh.id, firstName: 'Lena', lastInitial: 'B' })
    } finally {
      socket.close()
    }
  })

  it('connects 10 of 10 official clients with default options, each hearing a guest sign-in', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    // Long-polling first, then the upgrade: every request of a session must reach the replica that opened
    // it. Spread over the two replicas without stickiness, most were told "Session ID unknown".
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        connectWithDefaults(balancer.url, { openHouseId: oh.id }, `127.0.0.${i + 10}`),
      ),
    )
    const sockets: TestSocket[] = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
    try {
      expect(outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).toEqual([])
      const heard = sockets.map((s) => nextEvent(s, 'attendee.added'))
      const res = await postFrom(
        '127.0.0.5',
        '/api/public/saveProspect',
        guestFields(oh.id, { prospectFirstName: 'Noor', prospectLastName: 'Defaults' }),
      )
      expect(res.status).toBe(201)
      for (const event of await Promise.all(heard)) {
        expect(event.data).toMatchObject({ openHouseId: oh.id, firstName: 'Noor', lastInitial: 'D' })
      }
    } finally {
      for (const socket of sockets) socket.close()
    }
  })
})
