import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'

// A transaction's BEGIN is sent with its first statement (decision 022). What every caller relies on
// must still hold: all or nothing, one transaction on the server, and a connection handed back clean.
// The pool here has one connection, so each test's next transaction runs where the last one ran.

let database: TestDatabase
let one: DbHandle
beforeAll(async () => {
  database = await createTestDatabase()
  one = createPostgresDb(database.url, 1)
  await sql`create table tx_probe (id integer primary key)`.execute(one.db)
})
afterAll(async () => {
  await one.close()
  await database.drop()
})

const probes = async () =>
  (await sql<{ id: number }>`select id from tx_probe order by id`.execute(one.db)).rows.map((r) => r.id)

/** The state of the test pool's one connection, as the server sees it. */
async function connectionState() {
  const { rows } = await sql<{ state: string; inTransaction: boolean }>`
    select state, pg_current_xact_id_if_assigned() is not null as in_transaction
    from pg_stat_activity where pid = pg_backend_pid()`.execute(one.db)
  return rows[0]
}

describe('transactions', () => {
  it('undo every write when the work fails after them', async () => {
    await expect(
      inTransaction(one.db, async (trx) => {
        await sql`insert into tx_probe values (1)`.execute(trx)
        await sql`insert into tx_probe values (2)`.execute(trx)
        throw new Error('the work failed')
      }),
    ).rejects.toThrow('the work failed')
    expect(await probes()).toEqual([])
  })

  it('run all their statements in one transaction on the server, first one included', async () => {
    const ids = await inTransaction(one.db, async (trx) => {
      const first = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx)
      await sql`insert into tx_probe values (3)`.execute(trx)
      const last = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx)
      return [first.rows[0]?.id, last.rows[0]?.id]
    })
    expect(ids[0]).toMatch(/^\d+$/)
    expect(ids[0]).toBe(ids[1])
    expect(await probes()).toEqual([3])
  })

  it('answer statements sent together in one transaction each with its own rows, in order', async () => {
    const answers = await inTransaction(one.db, (trx) =>
      Promise.all(
        [10, 11, 12].map(async (n) => {
          await sql`insert into tx_probe values (${n})`.execute(trx)
          const { rows } = await sql<{ n: number; xid: string }>`
            select ${n}::int as n, pg_current_xact_id()::text as xid`.execute(trx)
          return rows[0] ?? { n: 0, xid: '' }
        }),
      ),
    )
    expect(answers.map((a) => a.n)).toEqual([10, 11, 12])
    expect(new Set(answers.map((a) => a.xid)).size).toBe(1)
    expect(await probes()).toEqual([3, 10, 11, 12])
  })

  it('roll back when the first statement fails, and leave the connection ready for the next', async () => {
    await expect(
      inTransaction(one.db, async (trx) => {
        await sql`insert into tx_probe values (3)`.execute(trx) // a duplicate key
      }),
    ).rejects.toThrow(/duplicate key/)
    expect(await connectionState()).toEqual({ state: 'active', inTransaction: false })
    await inTransaction(one.db, (trx) => sql`insert into tx_probe values (4)`.execute(trx))
    expect(await probes()).toEqual([3, 4, 10, 11, 12])
  })

  it('leave nothing open when they end before any statement, committed or failed', async () => {
    expect(await inTransaction(one.db, async () => 'nothing to write')).toBe('nothing to write')
    await expect(
      inTransaction(one.db, async () => {
        throw new Error('refused before any write')
      }),
    ).rejects.toThrow('refused before any write')
    expect(await connectionState()).toEqual({ state: 'active', inTransaction: false })
    // The next statement outside a transaction commits on its own: no BEGIN was left owing.
    await sql`insert into tx_probe values (5)`.execute(one.db)
    const other = createPostgresDb(database.url, 1)
    try {
      const seen = await sql<{ id: number }>`select id from tx_probe where id = 5`.execute(other.db)
      expect(seen.rows).toEqual([{ id: 5 }])
    } finally {
      await other.close()
    }
  })
})

describe('transactions with settings of their own', () => {
  it('open with the isolation level asked for, the first statement already under it', async () => {
    const seen = await one.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const { rows } = await sql<{
          level: string
        }>`select current_setting('transaction_isolation') as level`.execute(trx)
        await sql`insert into tx_probe values (30)`.execute(trx)
        return rows[0]?.level
      })
    expect(seen).toBe('serializable')
    expect(await probes()).toContain(30)
    expect(await connectionState()).toEqual({ state: 'active', inTransaction: false })
  })

  it("undo a savepoint's writes alone, the savepoint being the transaction's first statement", async () => {
    const trx = await one.db.startTransaction().execute()
    const inner = await trx.savepoint('before_probe').execute()
    await sql`insert into tx_probe values (31)`.execute(inner)
    await inner.rollbackToSavepoint('before_probe').execute()
    await sql`insert into tx_probe values (32)`.execute(inner)
    await inner.commit().execute()
    const ids = await probes()
    expect(ids).not.toContain(31)
    expect(ids).toContain(32)
    expect(await connectionState()).toEqual({ state: 'active', inTransaction: false })
  })
})

describe('statements with parameters', () => {
  it('are prepared once on their connection and then only run', async () => {
    const probe = (n: number) =>
      sql<{ n: number }>`select ${n}::int + 0 as n /* prepared probe */`.execute(one.db)
    expect((await probe(1)).rows).toEqual([{ n: 1 }])
    expect((await probe(2)).rows).toEqual([{ n: 2 }])
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_prepared_statements where statement like ${'%prepared probe%'}`.execute(
      one.db,
    )
    expect(rows).toEqual([{ n: 1 }])
  })
})

describe('pooled connections', () => {
  it('never compile a statement to machine code, however dear its estimate', async () => {
    // Estimated far above jit_above_cost (100,000) on this server's defaults, the statement would be
    // compiled on a connection of its own (JIT, hundreds of ms for statements of ours that run in one).
    const costly = sql<{
      'QUERY PLAN': unknown
    }>`explain (format json) select sum(x) from generate_series(1, 10000000) x`
    const [plan] = (await costly.execute(one.db)).rows
    expect(JSON.stringify(plan)).toContain('"Total Cost"')
    expect(JSON.stringify(plan)).not.toContain('"JIT"')
    const bare = createPostgresDb(database.url, 1)
    try {
      // A connection with the server's own settings would: the case above is one it applies to.
      await sql`set jit = on`.execute(bare.db)
      const [onBare] = (await costly.execute(bare.db)).rows
      expect(JSON.stringify(onBare)).toContain('"JIT"')
    } finally {
      await bare.close()
    }
  })
})
