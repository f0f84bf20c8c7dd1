import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/**
 * The one seam for Prometheus metrics (decision 047). Feature code counts what happened through
 * `metrics.count(name, labels)`, with the names and label values typed below; nothing else imports
 * prom-client. One registry per process: an API process and a worker each expose their own.
 */

/** What feature code counts, and the labels each count carries. */
export interface Counted {
  /** A guest's QR-code sign-in answered: a new visit, or a retry that found the first (same clientRequestId). */
  guestSignIn: { outcome: 'created' | 'repeated' }
  /** A claim to host an open house: won, or lost to another agent (or to a changed open house). */
  claim: { outcome: 'won' | 'lost' }
  /**
   * One attempt to hand something to the outside: a webhook, a Follow Up Boss post, a mail. `ignored`:
   * Follow Up Boss took it and dropped it (204); `rejected`: it refused the key, the lead waits.
   */
  delivery: {
    channel: 'webhook' | 'crm' | 'mail'
    outcome: 'delivered' | 'retrying' | 'failed' | 'skipped' | 'ignored' | 'rejected'
  }
  /** An agent's session looked up: kept by this process, or read from the database. */
  sessionCache: { result: 'hit' | 'miss' }
  /** A request refused because the process is overloaded (decision 047), by what tripped. */
  shed: { reason: string }
}

const registry = new Registry()
collectDefaultMetrics({ register: registry })

const counters: { [N in keyof Counted]: Counter<string> } = {
  guestSignIn: new Counter({
    name: 'porchlight_guest_sign_ins_total',
    help: 'Guest sign-ins answered, by outcome (created, repeated)',
    labelNames: ['outcome'],
    registers: [registry],
  }),
  claim: new Counter({
    name: 'porchlight_claims_total',
    help: 'Claims to host an open house, by outcome (won, lost)',
    labelNames: ['outcome'],
    registers: [registry],
  }),
  delivery: new Counter({
    name: 'porchlight_deliveries_total',
    help: 'Webhook, Follow Up Boss (crm) and mail delivery attempts, by channel and outcome',
    labelNames: ['channel', 'outcome'],
    registers: [registry],
  }),
  sessionCache: new Counter({
    name: 'porchlight_session_cache_lookups_total',
    help: "Agents' session lookups, by result (hit: kept by this process; miss: read from the database)",
    labelNames: ['result'],
    registers: [registry],
  }),
  shed: new Counter({
    name: 'porchlight_shed_requests_total',
    help: 'API requests refused with 503 because the process was overloaded, by reason',
    labelNames: ['reason'],
    registers: [registry],
  }),
}

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
})

/** What a process can tell about the work waiting in it, read when Prometheus scrapes. */
export interface MetricSources {
  /** Outbox rows not yet done (nor failed or parked), and the age of the oldest in seconds. */
  outbox?: () => Promise<{ waiting: number; oldestSeconds: number | null }>
  /** BullMQ's counts per queue. */
  queues?: () => Promise<Record<string, { waiting: number; active: number; failed: number; delayed: number }>>
  /** Socket.io clients connected to this process. */
  sockets?: () => number
  /**
   * Consenting guests' welcomes not done yet: owed (the worker takes them now), set aside after a
   * failure (tried again later), and left for an operator after the last try (decision 053).
   */
  welcomes?: () => Promise<{ owed: number; setAside: number; forOperator: number }>
}

let sources: MetricSources = {}

/** Each scrape waits this long at most for a source: a database away must not hang the scrape. */
const SOURCE_TIMEOUT_MS = 2000
const within = <T>(work: Promise<T>): Promise<T | null> =>
  Promise.race([
    work.catch(() => null),
    new Promise<null>((resolve) => {
      setTimeout(resolve, SOURCE_TIMEOUT_MS, null).unref()
    }),
  ])

new Gauge({
  name: 'porchlight_outbox_waiting',
  help: 'Outbox rows waiting to be relayed or finished by a job',
  registers: [registry],
  async collect() {
    const read = sources.outbox && (await within(sources.outbox()))
    if (read) this.set(read.waiting)
  },
})
new Gauge({
  name: 'porchlight_outbox_oldest_waiting_seconds',
  help: 'Age of the oldest outbox row still waiting (0 with none waiting)',
  registers: [registry],
  async collect() {
    const read = sources.outbox && (await within(sources.outbox()))
    if (read) this.set(read.oldestSeconds ?? 0)
  },
})
new Gauge({
  name: 'porchlight_queue_jobs',
  help: 'BullMQ jobs per queue and state (waiting, active, failed, delayed)',
  labelNames: ['queue', 'state'],
  registers: [registry],
  async collect() {
    const read = sources.queues && (await within(sources.queues()))
    if (!read) return
    for (const [queue, counts] of Object.entries(read)) {
      for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n)
    }
  },
})
new Gauge({
  name: 'porchlight_guest_welcomes',
  help: "Consenting guests' welcomes not done yet, by state (owed, set_aside, for_operator)",
  labelNames: ['state'],
  registers: [registry],
  async collect() {
    const read = sources.welcomes && (await within(sources.welcomes()))
    if (!read) return
    this.set({ state: 'owed' }, read.owed)
    this.set({ state: 'set_aside' }, read.setAside)
    this.set({ state: 'for_operator' }, read.forOperator)
  },
})
new Gauge({
  name: 'porchlight_sockets_connected',
  help: 'Socket.io clients connected to this process',
  registers: [registry],
  collect() {
    if (sources.sockets) this.set(sources.sockets())
  },
})

export const metrics = {
  /** Counts one thing that happened. */
  count<N extends keyof Counted>(name: N, labels: Counted[N]): void {
    counters[name].inc(labels as Record<string, string>)
  },

  /** One HTTP request answered: `route` is the route's pattern (`/api/x/:id`), never the raw URL. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    httpDuration.observe({ method, route, status_code: statusCode }, seconds)
  },

  /**
   * The composition root tells where waiting work is read from; the answer forgets them again (a
   * process that closes its app). With two apps in one process (tests), the last one is read.
   */
  readFrom(next: MetricSources): () => void {
    sources = { ...sources, ...next }
    return () => {
      for (const key of Object.keys(next) as Array<keyof MetricSources>) {
        if (sources[key] === next[key]) delete sources[key]
      }
    }
  },

  /** The text Prometheus scrapes, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: registry.contentType, body: await registry.metrics() }
  },
}
