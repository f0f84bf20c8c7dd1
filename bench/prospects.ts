// `pnpm bench prospects`: an agent's prospect list at 100,000 prospects (and as many of other agents in
// the table): a page of 25 in each sort, under each filter, deep in the list and for a name search —
// through the API (the page and its total, counted beside it) and as the same page's SQL and the count's
// on a bare pg pool, in the same run. Issue 13's target: at most 20 ms through the API.
import { performance } from 'node:perf_hooks'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { barePool, report, startBenchApp } from './support.ts'

const PROSPECTS = 100_000
const TIMES = 30
const PAGE = 25
/** Guests of one open house among the agent's prospects. */
const GUESTS = 300

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10
}

async function timed(work: () => Promise<unknown>, count = TIMES): Promise<number> {
  await work() // warm: the first run pays for plans and caches
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return median(times)
}

export async function run() {
  const bench = await startBenchApp()
  const pool = barePool(bench.databaseUrl, 4)
  try {
    const agent = await makePlannedAgent(bench.db)
    const other = await makePlannedAgent(bench.db)
    const oh = await scheduleOpenHouse({ call: apiCaller(bench.url) }, agent)
    // 60% without a realtor; stages from many New to few Closed; timelines (or none) in turn; a third
    // with a follow-up date within two months either side of today.
    for (const [id, prefix] of [
      [agent.agent.id, 'a'],
      [other.agent.id, 'b'],
    ] as const) {
      await pool.query(
        `insert into prospect (prospect_first_name, prospect_last_name, prospect_email_id,
            prospect_phone_number, created_by_re_agent_id, working_with_re_agent_flag, prospect_stage,
            home_buying_timelines, next_follow_up_date, created_date, updated_date)
          select 'First' || n, 'Last' || (n * 7919 % $1), $2 || n || '@example.com',
            '404555' || lpad(n::text, 4, '0'), $3, n % 5 < 2,
            (array['New','New','New','New','New','New','Contacted','Contacted','Nurturing','Client'])[n % 10 + 1],
            (array['Now','1-3 Months','3-6 Months','6-9 Months','Just Exploring','Other', null])[n % 7 + 1],
            case when n % 3 = 0 then current_date + (n % 121 - 60) end,
            now() - make_interval(mins => n), now() - make_interval(mins => n)
          from generate_series(1, $1::int) n`,
        [PROSPECTS, prefix, id],
      )
    }
    await pool.query(`update prospect set prospect_stage = 'Closed' where id % 37 = 0`)
    await pool.query(
      `insert into open_house_attendee (open_house_id, prospect_id)
        select $1, id from prospect where created_by_re_agent_id = $2 and id % 331 = 0 limit $3`,
      [oh.id, agent.agent.id, GUESTS],
    )
    await pool.query('vacuum analyze prospect')
    await pool.query('vacuum analyze open_house_attendee')

    const api = (query: string) => async () => {
      const res = await fetch(
        `${bench.url}/api/prospectmgmt/getProspectsByREAgentId/${agent.agent.id}?limit=${PAGE}&${query}`,
        { headers: { authorization: `Bearer ${agent.token}` } },
      )
      if (res.status !== 200) throw new Error(`prospects list answered ${res.status}`)
      await res.arrayBuffer()
    }
    const bare =
      (where: string, order: string, offset = 0) =>
      async () =>
        pool.query(
          `select * from prospect where created_by_re_agent_id = $1 ${where}
         order by ${order} limit ${PAGE} offset ${offset}`,
          [agent.agent.id],
        )
    const count = (where: string) => async () =>
      pool.query(`select count(*) from prospect where created_by_re_agent_id = $1 ${where}`, [agent.agent.id])
    const newest = 'created_date desc, id desc'
    const search = `and (prospect_first_name ilike '%4242%' or prospect_last_name ilike '%4242%')`
    const guests = `and exists (select 1 from open_house_attendee a where a.prospect_id = prospect.id
      and a.open_house_id = ${oh.id})`
    const cases: Array<[string, string, string, string, number?]> = [
      ['newest first', 'sort=newest', '', newest],
      ['by name', 'sort=name', '', 'lower(prospect_last_name), lower(prospect_first_name), id'],
      ['by next follow-up', 'sort=followUp', '', 'next_follow_up_date nulls last, id'],
      ['no realtor', 'noRealtor=true', 'and not working_with_re_agent_flag', newest],
      ['timeline 1-3 Months', 'timeline=1-3%20Months', `and home_buying_timelines = '1-3 Months'`, newest],
      ['stage Closed (3%)', 'stage=Closed', `and prospect_stage = 'Closed'`, newest],
      [
        'no realtor, Nurturing, by name',
        'noRealtor=true&stage=Nurturing&sort=name',
        `and not working_with_re_agent_flag and prospect_stage = 'Nurturing'`,
        'lower(prospect_last_name), lower(prospect_first_name), id',
      ],
      [`open house (${GUESTS} guests)`, `openHouseId=${oh.id}`, guests, newest],
      ['page at offset 10,000', 'offset=10000', '', newest, 10_000],
      ['name search "4242"', 'q=4242', search, newest],
    ]
    const rows: Record<string, { porchlightMs: number; bareSqlMs: number; bareCountMs: number }> = {}
    for (const [name, query, where, order, offset] of cases) {
      rows[name] = {
        porchlightMs: await timed(api(query)),
        bareSqlMs: await timed(bare(where, order, offset)),
        bareCountMs: await timed(count(where)),
      }
    }
    report(
      'prospects',
      `Prospects list of one agent at ${PROSPECTS.toLocaleString()} prospects, a page of ${PAGE} and its total (median of ${TIMES}, ms; target ≤ 20)`,
      rows,
    )
    // The export is every match, not a page: timed apart, on the filtered list and on the whole list.
    for (const [name, query] of [
      ['no realtor, Nurturing', 'noRealtor=true&stage=Nurturing'],
      ['whole list', ''],
    ] as const) {
      let rowsOut = 0
      const ms = await timed(async () => {
        const res = await fetch(`${bench.url}/api/prospectmgmt/export/${agent.agent.id}.csv?${query}`, {
          headers: { authorization: `Bearer ${agent.token}` },
        })
        rowsOut = (await res.text()).trimEnd().split('\n').length - 1
      }, 3)
      console.log(`CSV export, ${name} (${rowsOut.toLocaleString()} prospects): ${ms} ms (median of 3)`)
    }
  } finally {
    await pool.end()
    await bench.close()
  }
}
