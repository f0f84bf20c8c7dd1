// Prometheus metrics (decision 047): what an operator's Prometheus scrapes, read by a Prometheus text
// parser, moves as guests sign in and agents claim; the public port serves them only with the token.
import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { serveMetrics } from '@porchlight/server/src/http/observe.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { observations, sample, scrape } from '../support/prometheus.ts'

const TOKEN = 'metrics-token-for-the-test-0123456789'

let t: TestApp
let plain: TestApp
beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } })
  plain = await buildTestApp()
})
afterAll(async () => {
  await plain?.close()
  await t?.close()
})

describe('/metrics on the public port', () => {
  it("is refused in the error shape without the token, with a wrong one, or an agent's own", async () => {
    const agent = await makePlannedAgent(t.db)
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Basic ${TOKEN}`,
      `Bearer ${agent.token}`,
    ]) {
      const res = await fetch(`${t.url}/metrics`, { headers: authorization ? { authorization } : {} })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({
        error: { code: 'UNAUTHORIZED', message: 'The metrics token is missing or wrong' },
      })
    }
  })

  it("is not in the API's OpenAPI description", async () => {
    const described = (await (await fetch(`${t.url}/api/docs/json`)).json()) as { paths: object }
    expect(Object.keys(described.paths).length).toBeGreaterThan(10)
    expect(Object.keys(described.paths)).not.toContain('/metrics')
  })

  it('does not exist without METRICS_TOKEN', async () => {
    const res = await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('NOT_FOUND')
  })

  it('counts a sign-in and a claim won and lost, and times their routes by pattern and status', async () => {
    const listing = await makePlannedAgent(t.db)
    const [first, second] = [await makePlannedAgent(t.db), await makePlannedAgent(t.db)]
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)
    const before = await scrape(`${t.url}/metrics`, TOKEN)

    const claimRoute = '/api/openhousemgmt/claimToHostOpenHouse/:openHouseId/:agentId'
    const won = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${first?.agent.id}`, {
      token: first?.token,
    })
    const lost = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${second?.agent.id}`, {
      token: second?.token,
    })
    expect([won.status, lost.status]).toEqual([200, 409])
    const body = guestFields(oh.id)
    expect((await t.call('POST', '/public/saveProspect', { body })).status).toBe(201)
    // The guest page's retry of the same sign-in (same clientRequestId) is the same visit.
    expect((await t.call('POST', '/public/saveProspect', { body })).status).toBe(201)

    const after = await scrape(`${t.url}/metrics`, TOKEN)
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels)
    expect(moved('porchlight_claims_total', { outcome: 'won' })).toBe(1)
    expect(moved('porchlight_claims_total', { outcome: 'lost' })).toBe(1)
    expect(moved('porchlight_guest_sign_ins_total', { outcome: 'created' })).toBe(1)
    expect(moved('porchlight_guest_sign_ins_total', { outcome: 'repeated' })).toBe(1)

    const timed = (route: string, status: string, method: string) =>
      observations(after, 'http_request_duration_seconds', { route, status_code: status, method }) -
      observations(before, 'http_request_duration_seconds', { route, status_code: status, method })
    expect(timed(claimRoute, '200', 'PATCH')).toBe(1)
    expect(timed(claimRoute, '409', 'PATCH')).toBe(1)
    expect(timed('/api/public/saveProspect', '201', 'POST')).toBe(2)
    // Routes are patterns: no open house or agent id makes a series of its own.
    const routes = after
      .find((f) => f.name === 'http_request_duration_seconds')
      ?.metrics.map((m) => m.labels?.route ?? '')
    expect(routes?.length).toBeGreaterThan(0)
    expect(routes?.filter((r) => /\/\d+(\/|$)/.test(r))).toEqual([])
  })

  it('keeps sessions: a second request of the same agent is a cache hit', async () => {
    const agent = await makePlannedAgent(t.db)
    const before = await scrape(`${t.url}/metrics`, TOKEN)
    for (let i = 0; i < 2; i++) {
      expect(
        (await t.call('GET', `/reagentmgmt/getREAgentDetails/${agent.agent.id}`, { token: agent.token }))
          .status,
      ).toBe(200)
    }
    const after = await scrape(`${t.url}/metrics`, TOKEN)
    const moved = (result: string) =>
      sample(after, 'porchlight_session_cache_lookups_total', { result }) -
      sample(before, 'porchlight_session_cache_lookups_total', { result })
    expect(moved('miss')).toBe(1)
    expect(moved('hit')).toBe(1)
  })

  it('tells the outbox, the queues and the sockets, and the default Node metrics', async () => {
    const families = await scrape(`${t.url}/metrics`, TOKEN)
    const names = families.map((f) => f.name)
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'porchlight_outbox_waiting',
      'porchlight_outbox_oldest_waiting_seconds',
      'porchlight_sockets_connected',
    ]) {
      expect(names).toContain(name)
    }
    // No worker runs here: the sign-ins' mail jobs wait in the queue (or the outbox).
    const queued = families.find((f) => f.name === 'porchlight_queue_jobs')
    expect(queued?.metrics.map((m) => `${m.labels?.queue}/${m.labels?.state}`)).toEqual(
      expect.arrayContaining(['mail/waiting', 'mail/active', 'mail/failed', 'webhooks/waiting']),
    )
  })
})

describe('the outbox', () => {
  it('tells how long its oldest waiting row has waited', async () => {
    // No worker here: a job written now is relayed but never done, so it waits and ages.
    // (The process's metrics read the app made last, metrics.readFrom: `plain`.)
    await inTransaction(plain.db, (trx) =>
      plain.app.deps.outbox.add(trx, 'receipts', 'seller', { openHouseId: 2_000_000_000 }),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const families = await scrape(`${t.url}/metrics`, TOKEN)
    expect(sample(families, 'porchlight_outbox_waiting')).toBeGreaterThanOrEqual(1)
    expect(sample(families, 'porchlight_outbox_oldest_waiting_seconds')).toBeGreaterThanOrEqual(1)
  })
})

describe("consenting guests' welcomes", () => {
  it('are told owed while no worker runs, then set aside and left for an operator as the worker records them', async () => {
    // The process's metrics read the app made last (metrics.readFrom): `plain`, whose guests these are.
    const agent = await makePlannedAgent(plain.db)
    const oh = await scheduleOpenHouse(plain, agent, { publishLevel: 'Hosting Myself' })
    const welcomes = async () => {
      const families = await scrape(`${t.url}/metrics`, TOKEN)
      const count = (state: string) => sample(families, 'porchlight_guest_welcomes', { state })
      return { owed: count('owed'), set_aside: count('set_aside'), for_operator: count('for_operator') }
    }
    const before = await welcomes()
    const visits: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await plain.call('POST', '/public/saveProspect', {
        body: guestFields(oh.id, { emailConsent: true, consentText: 'Email me about homes like this one.' }),
      })
      expect(res.status).toBe(201)
      visits.push(res.body.data.id)
    }
    // No worker here: the three wait.
    expect(await welcomes()).toEqual({ ...before, owed: before.owed + 3 })

    // What the worker writes when a welcome fails (decision 053): tried again later, or after the
    // last try left for an operator.
    await sql`update guest_welcome set attempts = 1, retry_at = now() + interval '1 minute',
      last_error = 'refused' where attendee_id = ${visits[0]}`.execute(plain.db)
    await sql`update guest_welcome set attempts = 5, retry_at = 'infinity', last_error = 'refused'
      where attendee_id = ${visits[1]}`.execute(plain.db)
    expect(await welcomes()).toEqual({
      owed: before.owed + 1,
      set_aside: before.set_aside + 1,
      for_operator: before.for_operator + 1,
    })
  })
})

describe('the Grafana dashboard (deploy/grafana-dashboard.json)', () => {
  it('graphs only metrics a process exposes', async () => {
    const dashboard = JSON.parse(
      await readFile(path.resolve(import.meta.dirname, '../../deploy/grafana-dashboard.json'), 'utf8'),
    ) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> }
    const exposed = new Set(
      (await scrape(`${t.url}/metrics`, TOKEN)).flatMap((f) =>
        f.type === 'HISTOGRAM' ? [`${f.name}_bucket`, `${f.name}_count`, `${f.name}_sum`] : [f.name],
      ),
    )
    const graphed = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((target) => [
        ...target.expr.matchAll(/\b((?:porchlight|http|nodejs|process)_[a-z_]+)\b/g),
      ]),
    )
    expect(graphed.length).toBeGreaterThan(10)
    expect(graphed.map((m) => m[1]).filter((name) => !exposed.has(name as string))).toEqual([])
  })
})

describe('/metrics on METRICS_PORT', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveMetrics(0, '127.0.0.1')
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('answers Prometheus without a token, and nothing else', async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const families = await scrape(`${origin}/metrics`)
    expect(families.map((f) => f.name)).toContain('porchlight_guest_sign_ins_total')
    const other = await fetch(`${origin}/api/health`)
    expect(other.status).toBe(404)
    expect((await other.json()).error.code).toBe('NOT_FOUND')
  })
})
