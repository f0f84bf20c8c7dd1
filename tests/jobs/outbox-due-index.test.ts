// The outbox relay with many follow-ups waiting for their day (decision 045): its read is served by
// the partial indexes of open rows, by due time and by when they were handed over, so it reads only the
// rows it hands over. Checked on PostgreSQL's own plan (its shape and the rows each scan returned),
// never on a timing; what the pass costs is `pnpm bench mail`.
import { dueRows } from '@porchlight/server/src/jobs/outbox.ts'
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

let t: TestApp

const FUTURE = 20_000

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  'Index Cond'?: string
  'Actual Rows'?: number
  Plans?: PlanNode[]
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

/** The relay's own statement as it runs, with its parameters, explained by PostgreSQL (and run). */
async function explain(handedBefore: Date): Promise<PlanNode[]> {
  const query = dueRows(t.db, handedBefore, 100).compile()
  const { rows } = await t.db
    .withoutPlugins()
    .executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    )
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan
  if (!plan) throw new Error('PostgreSQL gave no plan')
  return nodes(plan)
}

describe('the outbox relay', () => {
  it('reads only due rows, through the partial indexes, however many follow-ups wait for their day', async () => {
    // A door's worth of consenting guests, each leaving a follow-up due in two days; a few jobs due now;
    // jobs handed to BullMQ a moment ago (in flight) and one handed over long ago and never done.
    await sql`insert into outbox (queue, job_name, payload, run_at)
      select 'mail', 'followUp', jsonb_build_object('openHouseId', 1, 'prospectId', g),
        now() + interval '2 days' + g * interval '1 second'
      from generate_series(1, ${FUTURE}) g`.execute(t.db)
    await sql`insert into outbox (queue, job_name, payload, relayed_at)
      select 'mail', 'followUp', jsonb_build_object('openHouseId', 2, 'prospectId', g), now()
      from generate_series(1, 500) g`.execute(t.db)
    const stale = await sql<{ id: string }>`insert into outbox (queue, job_name, payload, relayed_at)
      values ('mail', 'followUp', '{"openHouseId":3,"prospectId":1}', now() - interval '1 hour')
      returning id`.execute(t.db)
    const due = await sql<{ id: string }>`insert into outbox (queue, job_name, payload, run_at)
      select 'mail', 'followUp', jsonb_build_object('openHouseId', 4, 'prospectId', g),
        case when g % 2 = 0 then now() - interval '1 minute' end
      from generate_series(1, 3) g returning id`.execute(t.db)
    await sql`analyze outbox`.execute(t.db)

    const handedBefore = new Date(Date.now() - 60_000)
    const plan = await explain(handedBefore)
    const scans = plan.filter((n) => n['Relation Name'] === 'outbox')
    expect(scans.map((n) => [n['Node Type'], n['Index Name']]).sort()).toEqual([
      ['Index Scan', 'outbox_due_idx'],
      ['Index Scan', 'outbox_relayed_idx'],
    ])
    // Ordered by the indexes themselves: nothing is read whole to be sorted.
    expect(plan.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Seq Scan')).toBe(false)
    // Each scan stops where the due rows end: the 3 due now, the 1 handed over long ago.
    const fresh = scans.find((n) => n['Index Name'] === 'outbox_due_idx')
    const again = scans.find((n) => n['Index Name'] === 'outbox_relayed_idx')
    expect(fresh?.['Index Cond']).toMatch(/COALESCE\(run_at, created_at\) <= now\(\)/)
    expect(fresh?.['Actual Rows']).toBe(due.rows.length)
    expect(again?.['Actual Rows']).toBe(1)

    // And the relay hands over exactly those.
    const handed = await t.db
      .transaction()
      .execute(async (trx) => (await dueRows(trx, handedBefore, 100).execute()).map((r) => String(r.id)))
    expect(handed.sort()).toEqual([...due.rows.map((r) => String(r.id)), String(stale.rows[0]?.id)].sort())
  })
})
