// `pnpm bench mail`: 1,000 team invitations queued in one transaction go through the outbox relay and
// the worker to a real SMTP server (in a process of its own); mails/s and p99 queue-to-delivery
// latency for the first team after a start, for the next one, and for a third one signed with DKIM
// (a 2048-bit RSA key, as a real sender has), beside BullMQ no-op jobs/s in the same run as the
// baseline. The target (decision 045): the first team's thousand delivered in 6 s or less. Then the
// outbox relay's pass with nothing due, with no follow-ups waiting and with 100,000 due in two days.
// What it measures: the time from the queueing transaction's start to the last mail accepted by the
// receiver, in one process holding the API's outbox relay and the worker (nodemailer composing,
// signing and sending over its pool of 16 connections), on this machine with whatever else runs on it.
import { spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'
import { startWorkerRuntime } from '@porchlight/server/src/compose/worker.ts'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { queueMails } from '@porchlight/server/src/mail/queue-mail.ts'
import { mailTemplates } from '@porchlight/server/src/mail/templates.ts'
import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import pino from 'pino'
import { pct, REDIS_URL, report, startBenchApp } from './support.ts'

const MAILS = 1000

async function noopBaseline(): Promise<number> {
  const prefix = `bnoop${randomBytes(3).toString('hex')}`
  const queue = new Queue('noop', { connection: new Redis(REDIS_URL), prefix })
  await queue.addBulk(Array.from({ length: MAILS }, (_, i) => ({ name: 'noop', data: { i } })))
  let done = 0
  const started = performance.now()
  const finished = new Promise<void>((resolve) => {
    const worker = new Worker('noop', async () => {}, {
      connection: new Redis(REDIS_URL, { maxRetriesPerRequest: null }),
      prefix,
      concurrency: 8,
    })
    worker.on('completed', async () => {
      if (++done === MAILS) {
        await worker.close()
        resolve()
      }
    })
  })
  await finished
  const perSec = Math.round(MAILS / ((performance.now() - started) / 1000))
  await queue.obliterate({ force: true })
  await queue.close()
  return perSec
}

/** The SMTP receiver in its own process (smtp-receiver.ts): its address, and each recipient as it arrives. */
type Receiver = Awaited<ReturnType<typeof startReceiver>>

async function startReceiver() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'smtp-receiver.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  if (!child.stdout || !child.stdin) throw new Error('the receiver has no input or output')
  const lines = readline.createInterface({ input: child.stdout })
  const arrived: string[] = []
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the receiver stopped')))
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve(line.slice('listening '.length))
      else arrived.push(line)
    })
  })
  return {
    url,
    arrived,
    async close() {
      child.stdin?.end()
      await new Promise((r) => child.once('exit', r))
    },
  }
}

/**
 * One team's invitations: queued in one transaction as publishing to a team queues them
 * (open-houses/offers.ts), then waited for at the receiver. Answers mails/s from the queueing
 * transaction's start to the last arrival, and each mail's queue-to-delivery time.
 */
async function burst(bench: Awaited<ReturnType<typeof startBenchApp>>, smtp: Receiver, name: string) {
  const queuedAt = new Map<string, number>()
  const started = performance.now()
  await inTransaction(bench.db, async (trx) => {
    const invitations = Array.from({ length: MAILS }, (_, i) => {
      const to = `${name}${i}@example.com`
      queuedAt.set(to, performance.now())
      return mailTemplates.teamInvitation(to, {
        firstName: `Member${i}`,
        address: '12 Porch Lane, Roswell, Georgia 30075, United States',
        when: '2027-03-06, 1:00 PM – 3:00 PM',
        listing: 'Avery Stone',
        level: 'Real Estate Team',
        link: 'http://localhost:3000/openhouses?activeSection=searchOH&openHouseId=1',
      })
    })
    await queueMails(trx, bench.app.deps.outbox, invitations)
  })
  const latencies: number[] = []
  const seen = new Set<string>()
  while (seen.size < MAILS) {
    for (const to of smtp.arrived) {
      if (!seen.has(to) && queuedAt.has(to)) {
        seen.add(to)
        latencies.push(performance.now() - (queuedAt.get(to) ?? 0))
      }
    }
    if (performance.now() - started > 120_000) throw new Error(`only ${seen.size} of ${MAILS} mails arrived`)
    await new Promise((r) => setTimeout(r, 20))
  }
  const seconds = (performance.now() - started) / 1000
  return {
    perSecond: Math.round(MAILS / seconds),
    queueToDeliveryP50ms: pct(latencies, 50),
    queueToDeliveryP99ms: pct(latencies, 99),
    delivered: seen.size,
    duplicates: smtp.arrived.filter((to) => queuedAt.has(to)).length - seen.size,
  }
}

/**
 * The outbox relay's pass when nothing is due, as every API and worker process runs it several times a
 * second (and once more after each commit that wrote a row): with no follow-ups waiting, then with
 * `pending` follow-ups due in two days as a door's consenting guests leave them (decision 045's target:
 * 0.5 ms or less at 100,000; it was 17 ms). Each pass is `relayOnce()`: its transaction and its read.
 */
async function relayPasses(bench: Awaited<ReturnType<typeof startBenchApp>>, pending: number) {
  if (pending > 0) {
    await sql`insert into outbox (queue, job_name, payload, run_at)
      select 'mail', 'followUp', jsonb_build_object('openHouseId', 1, 'prospectId', g),
        now() + interval '2 days' + g * interval '1 millisecond'
      from generate_series(1, ${pending}) g`.execute(bench.db)
    // As autovacuum would have by then.
    await sql`analyze outbox`.execute(bench.db)
  }
  const outbox = bench.app.deps.outbox
  for (let i = 0; i < 50; i++) await outbox.relayOnce()
  const times: number[] = []
  for (let i = 0; i < 500; i++) {
    const started = performance.now()
    await outbox.relayOnce()
    times.push(performance.now() - started)
  }
  return { passP50ms: pct(times, 50), passP99ms: pct(times, 99), followUpsPending: pending }
}

export async function run() {
  const smtp = await startReceiver()
  const bench = await startBenchApp({ SMTP_URL: smtp.url })
  const config = bench.app.deps.config
  let runtime = startWorkerRuntime(config, bench.db, pino({ level: 'silent' }))
  try {
    const baseline = await noopBaseline()
    // The first team's invitations after a start run through code V8 has not optimized yet; the
    // second team's, right after, show the worker as it runs for the rest of its life.
    const first = await burst(bench, smtp, 'first')
    const warm = await burst(bench, smtp, 'warm')
    // The same worker with DKIM_* set: every message signed with a 2048-bit RSA key.
    await runtime.close()
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const dkim = {
      domainName: 'porchlight.example',
      keySelector: 'bench',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }
    runtime = startWorkerRuntime(
      { ...config, mail: { ...config.mail, dkim } },
      bench.db,
      pino({ level: 'silent' }),
    )
    const signed = await burst(bench, smtp, 'signed')
    const relayIdle = await relayPasses(bench, 0)
    const relayPending = await relayPasses(bench, 100_000)
    report('mail', `${MAILS} invitations: outbox → BullMQ → worker → SMTP`, {
      'porchlight, first team after start': first,
      'porchlight, next team (warm)': warm,
      'porchlight, next team, DKIM-signed': signed,
      'BullMQ no-op jobs': { perSecond: baseline },
      'outbox relay pass, nothing pending': relayIdle,
      'outbox relay pass, 100k follow-ups pending': relayPending,
    })
  } finally {
    await runtime.close()
    await bench.close()
    await smtp.close()
  }
}
