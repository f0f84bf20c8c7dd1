// `BENCH_SIGNIN_ONLY=api-cpu pnpm bench signin`: the API's own Node CPU per unconsented guest sign-in,
// the app alone (decisions 065, 066). The bench's app, each side in a process of its own
// (api-process.ts) on one scratch database with 100,000 follow-ups pending: this checkout's, and with
// `BENCH_API_CPU_AGAINST=<another checkout>` that one's too (its bench/api-process.ts, so its server).
// Each is warmed 10 s, then `BENCH_API_CPU_RUNS` (7) rounds of 5 s of sign-ins from the load generator
// each, the sides taking turns within a round (so both meet the machine alike), their CPU read from
// /proc. Net: less what the process spends idle (timers, the outbox relay) over the run's wall time,
// which includes the load generator's start; on a busy machine few sign-ins get through and the idle
// work's share of each grows.
import path from 'node:path'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { processCpuUs } from './start-command.ts'
import { barePool, load, ownProcess, pendingFollowUps, report, startBenchApp } from './support.ts'

const RUNS = Number(process.env.BENCH_API_CPU_RUNS ?? 7)
const AGAINST = process.env.BENCH_API_CPU_AGAINST

/** The process's CPU (µs) per ms of wall time while it waits `ms` with nothing asked of it. */
async function idleCpu(pid: number | undefined, ms: number): Promise<number> {
  const before = processCpuUs(pid)
  const started = performance.now()
  await new Promise((r) => setTimeout(r, ms))
  return (processCpuUs(pid) - before) / (performance.now() - started)
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0

export async function apiCpu() {
  const a = await startBenchApp()
  const pool = barePool(a.databaseUrl, 2)
  const sameAs = JSON.stringify({ databaseUrl: a.databaseUrl, prefix: a.prefix })
  const sides: Array<[string, string]> = [['this checkout', 'api-process.ts']]
  if (AGAINST) sides.push([`${AGAINST}`, path.resolve(AGAINST, 'bench/api-process.ts')])
  const servers = await Promise.all(sides.map(([, script]) => ownProcess<{ url: string }>(script, sameAs)))
  try {
    const t = { call: apiCaller(a.url), db: a.db } as never
    const listing = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    await pendingFollowUps(pool, oh.id, 100_000)
    const opts = (s: number) => ({
      url: `${servers[s]?.ready.url}/api/public/saveProspect`,
      guestSignIn: oh.id,
    })
    for (let s = 0; s < servers.length; s++) await load({ ...opts(s), duration: 10 })
    const idle = await Promise.all(servers.map((server) => idleCpu(server.pid, 3000)))
    const runs = servers.map(() => ({ gross: [] as number[], net: [] as number[], rates: [] as number[] }))
    for (let round = 0; round < RUNS; round++) {
      const order = servers.map((_, s) => s)
      if (round % 2 === 1) order.reverse()
      for (const s of order) {
        await pool.query('vacuum')
        const pid = servers[s]?.pid
        const cpuBefore = processCpuUs(pid)
        const started = performance.now()
        const r = await load(opts(s))
        const wallMs = performance.now() - started
        const used = processCpuUs(pid) - cpuBefore
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`)
        const n = Math.max(1, r.requests)
        runs[s]?.gross.push(Math.round(used / n))
        runs[s]?.net.push(Math.round((used - (idle[s] ?? 0) * wallMs) / n))
        runs[s]?.rates.push(r.requestsPerSec)
      }
    }
    const figures = Object.fromEntries(
      sides.map(([name], s) => {
        const r = runs[s] ?? { gross: [], net: [], rates: [] }
        return [
          name,
          {
            netMedian: median(r.net),
            net: r.net.join(', '),
            grossMedian: median(r.gross),
            idleUsPerSecond: Math.round((idle[s] ?? 0) * 1000),
            requestsPerSec: r.rates.join(', '),
          },
        ]
      }),
    )
    report(
      'signin-api-cpu',
      `The API's Node CPU per unconsented sign-in (µs), each side in its own process, ${RUNS} rounds of 5 s taking turns`,
      figures as never,
    )
  } finally {
    await Promise.all(servers.map((server) => server.close()))
    await pool.end()
    await a.close()
  }
}
