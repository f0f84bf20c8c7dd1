// `BENCH_SIGNIN_ONLY=api-cpu pnpm bench signin`: the API's own Node CPU per unconsented guest sign-in,
// the app alone (decisions 065, 066). The bench's app (`startBenchApp`, 100,000 follow-ups pending),
// warmed 10 s, then `BENCH_API_CPU_RUNS` (5) runs of 5 s of sign-ins from the load generator in its own
// process; this process holds only the app, so its `process.cpuUsage` per sign-in is the API's. No
// baseline beside it: run it on two checkouts taking turns, and read the medians.
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { barePool, load, report, startBenchApp } from './support.ts'

const RUNS = Number(process.env.BENCH_API_CPU_RUNS ?? 5)

export async function apiCpu() {
  const a = await startBenchApp()
  const pool = barePool(a.databaseUrl, 2)
  try {
    const t = { call: apiCaller(a.url), db: a.db } as never
    const listing = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    await pool.query(
      `insert into outbox (queue, job_name, payload, run_at)
       select 'mail', 'followUp', jsonb_build_object('openHouseId', $1::bigint, 'prospectId', g), now() + interval '2 days'
       from generate_series(1, 100000) g`,
      [oh.id],
    )
    await pool.query('vacuum analyze')
    const opts = { url: `${a.url}/api/public/saveProspect`, guestSignIn: oh.id }
    await load({ ...opts, duration: 10 })
    const runs: number[] = []
    const rates: number[] = []
    for (let i = 0; i < RUNS; i++) {
      await pool.query('vacuum')
      const r = await load(opts)
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`run ${i}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      runs.push(r.serverCpuUsPerRequest)
      rates.push(r.requestsPerSec)
    }
    const median = [...runs].sort((x, y) => x - y)[Math.floor(runs.length / 2)] ?? 0
    report(
      'signin-api-cpu',
      `The API's Node CPU per unconsented sign-in, the app alone, ${RUNS} runs of 5 s`,
      {
        'api cpu µs per sign-in': { median, runs: runs.join(', '), requestsPerSec: rates.join(', ') },
      },
    )
  } finally {
    await pool.end()
    await a.close()
  }
}
