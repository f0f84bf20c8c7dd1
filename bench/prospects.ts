// `pnpm bench prospects`: an agent's prospect list at 100,000 prospects (and as many of other agents in
// the table): the first page, a page deep in the list and a name search, through the API and as the
// same SQL on a bare pg pool, in the same run.
import { performance } from 'node:perf_hooks'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import pg from 'pg'
import { report, startBenchApp } from './support.ts'

const PROSPECTS = 100_000
const TIMES = 30

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  await work() // warm: the first run pays for plans and caches
  const times: number[] = []
  for (let i = 0; i < TIMES; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return median(times)
}

export async function run() {
  const bench = await startBenchApp()
  const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: 4 })
  try {
    const agent = await makePlannedAgent(bench.db)
    const other = await makePlannedAgent(bench.db)
    for (const [id, prefix] of [
      [agent.agent.id, 'a'],
      [other.agent.id, 'b'],
    ] as const) {
      await pool.query(
        `insert into prospect (prospect_first_name, prospect_last_name, prospect_email_id,
            prospect_phone_number, created_by_re_agent_id, created_date, updated_date)
          select 'First' || n, 'Last' || (n * 7919 % $1), $2 || n || '@example.com',
            '404555' || lpad(n::text, 4, '0'), $3,
            now() - make_interval(mins => n), now() - make_interval(mins => n)
          from generate_series(1, $1::int) n`,
        [PROSPECTS, prefix, id],
      )
    }
    await pool.query('analyze prospect')

    const api = (query: string) => async () => {
      const res = await fetch(
        `${bench.url}/api/prospectmgmt/getProspectsByREAgentId/${agent.agent.id}?${query}`,
        { headers: { authorization: `Bearer ${agent.token}` } },
      )
      if (res.status !== 200) throw new Error(`prospects list answered ${res.status}`)
      await res.arrayBuffer()
    }
    const bare = (where: string, offset: number) => async () =>
      pool.query(
        `select * from prospect where created_by_re_agent_id = $1 ${where}
         order by created_date desc, id desc limit 100 offset ${offset}`,
        [agent.agent.id],
      )
    const search = `and (prospect_first_name ilike '%4242%' or prospect_last_name ilike '%4242%')`
    const rows = {
      'first page (100)': {
        porchlightMs: await timed(api('limit=100')),
        bareSqlMs: await timed(bare('', 0)),
      },
      'page at offset 10,000': {
        porchlightMs: await timed(api('limit=100&offset=10000')),
        bareSqlMs: await timed(bare('', 10_000)),
      },
      'name search "4242"': {
        porchlightMs: await timed(api('q=4242')),
        bareSqlMs: await timed(bare(search, 0)),
      },
    }
    report(
      'prospects',
      `Prospects list of one agent at ${PROSPECTS.toLocaleString()} prospects (median of ${TIMES}, ms)`,
      rows,
    )
  } finally {
    await pool.end()
    await bench.close()
  }
}
