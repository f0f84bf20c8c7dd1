// `pnpm bench stats`: an agent's dashboard statistics with a long history (100,000 open houses listed,
// 50,000 guest visits), through the API; each figure counts over the whole history today, so this shows
// how it grows. Cloned in SQL from one open house and one visit made through the API. Then the same
// history is spread one open house a day around today and the dashboard overview, which reads only
// windows of days, is timed beside a one-row read (the agent's profile).
import { performance } from 'node:perf_hooks'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import pg from 'pg'
import { guestVisitor, report, startBenchApp } from './support.ts'

const OPEN_HOUSES = 100_000
const VISITS = 50_000
const TIMES = 10

/** Every column of a table but its id, for copying rows. */
async function columns(pool: pg.Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ column_name: string }>(
    `select column_name from information_schema.columns
     where table_name = $1 and column_name <> 'id' and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  )
  return rows.map((r) => r.column_name)
}

export async function run() {
  const bench = await startBenchApp()
  const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: 4 })
  const call = apiCaller(bench.url)
  try {
    const agent = await makePlannedAgent(bench.db)
    const oh = await scheduleOpenHouse({ call }, agent, { publishLevel: 'Hosting Myself' })
    const signIn = await call('POST', '/public/saveProspect', { body: guestVisitor(oh.id) })
    if (signIn.status !== 201) throw new Error(`sign-in answered ${signIn.status}`)
    const ohColumns = await columns(pool, 'open_house')
    await pool.query(
      `insert into open_house (${ohColumns.join(', ')})
       select ${ohColumns.map((c) => (c === 'scheduled_date' ? `(date '2200-01-01' + n)` : c)).join(', ')}
       from open_house, generate_series(1, $2::int) n where id = $1`,
      [oh.id, OPEN_HOUSES],
    )
    const prospectColumns = await columns(pool, 'prospect')
    await pool.query(
      `insert into prospect (${prospectColumns.join(', ')})
       select ${prospectColumns.map((c) => (c === 'prospect_email_id' ? `'v' || n || '@example.com'` : c === 'client_request_id' ? 'null' : c)).join(', ')}
       from prospect, generate_series(1, $2::int) n where id = $1`,
      [signIn.body.data.id, VISITS / 2],
    )
    const attendeeColumns = await columns(pool, 'open_house_attendee')
    await pool.query(
      `insert into open_house_attendee (${attendeeColumns.join(', ')})
       select ${attendeeColumns.map((c) => (c === 'open_house_id' ? 'o.id' : c === 'prospect_id' ? 'p.id' : `a.${c}`)).join(', ')}
       from open_house_attendee a,
         (select id, row_number() over (order by id) k from open_house where listing_re_agent_id = $1) o,
         (select id, row_number() over (order by id) k from prospect where created_by_re_agent_id = $1) p
       where o.k <= $2 and p.k = 1 + o.k % ($2 / 2) and a.id = (select min(id) from open_house_attendee)`,
      [agent.agent.id, VISITS],
    )
    await pool.query('analyze')

    const timed = async (path: string) => {
      const get = () =>
        fetch(`${bench.url}/api${path}`, { headers: { authorization: `Bearer ${agent.token}` } }).then(
          async (r) => {
            if (r.status !== 200) throw new Error(`${path} answered ${r.status}`)
            return r.json()
          },
        )
      const first = await get()
      const times: number[] = []
      for (let i = 0; i < TIMES; i++) {
        const start = performance.now()
        await get()
        times.push(performance.now() - start)
      }
      times.sort((x, y) => x - y)
      return { first, ms: Math.round((times[Math.floor(TIMES / 2)] ?? 0) * 10) / 10 }
    }
    const dashboard = await timed(`/openhousemgmt/getDashboardStatistics/${agent.agent.id}`)
    const overall = dashboard.first.data.overall
    report('stats', `Dashboard statistics of one agent with a long history (median of ${TIMES}, ms)`, {
      dashboard: {
        ms: dashboard.ms,
        listed: overall.totalListedOpenHouses,
        canceled: overall.totalCanceleddOpenHouses,
        visitors: overall.totalVisitedProspects,
      },
    })

    // The dashboard overview reads short windows around today: spread the same history over one open
    // house a day, the visited ones up to today, so every window has rows in it.
    await pool.query(
      `update open_house set scheduled_date = current_date - 50000 + id::int, starts_at = null, ends_at = null
       where listing_re_agent_id = $1`,
      [agent.agent.id],
    )
    await pool.query('analyze open_house')
    const overview = await timed(`/openhousemgmt/getDashboardOverview/${agent.agent.id}`)
    // Baseline: the agent's own profile, one row by id, in the same run.
    const baseline = await timed(`/reagentmgmt/getREAgentDetails/${agent.agent.id}`)
    report(
      'stats',
      `Dashboard overview of the same agent, its history around today (median of ${TIMES}, ms)`,
      {
        overview: {
          ms: overview.ms,
          nextOpenHouses: overview.first.data.nextOpenHouses.total,
          leadsThisWeek: overview.first.data.leadsThisWeek.total,
        },
        agentDetails: { ms: baseline.ms },
      },
    )
  } finally {
    await pool.end()
    await bench.close()
  }
}
