// `pnpm bench http`: a public read through the whole app (helmet, CORS, rate limit in Redis, zod
// serialisation, Kysely) beside a bare Fastify + pg select of the same rows, in the same run.
import Fastify from 'fastify'
import { barePool, loadWarm, report, startBenchApp } from './support.ts'

export async function run() {
  const bench = await startBenchApp()
  const pool = barePool(bench.databaseUrl, 20)
  const bare = Fastify()
  bare.get('/plans', async () => ({
    data: (await pool.query('select * from pricing_plan where offered order by sort_order')).rows,
  }))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`
  try {
    const baseline = await loadWarm({ url: `${bareUrl}/plans` })
    const app = await loadWarm({ url: `${bench.url}/api/pricingplanmgmt/getAllOfferedPricingPlans/0` })
    report('http', 'Plans list: Porchlight API vs bare Fastify + pg (50 connections, 5 s)', {
      'bare fastify + pg': baseline,
      porchlight: app,
      ratio: {
        requestsPerSec: (app.requestsPerSec / baseline.requestsPerSec).toFixed(2),
        // Inverted, so that like requestsPerSec more is better: bare's CPU per request over ours.
        serverCpuUsPerRequest: (baseline.serverCpuUsPerRequest / app.serverCpuUsPerRequest).toFixed(2),
      },
    })
  } finally {
    await bare.close()
    await pool.end()
    await bench.close()
  }
}
