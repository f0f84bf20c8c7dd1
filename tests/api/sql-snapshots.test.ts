import fs from 'node:fs'
import path from 'node:path'
import { statementsBuiltOnce } from '@porchlight/server/src/db/compiled-once.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

// The SQL a reviewer reads (as Immich keeps its queries): every statement built once, as the API sends
// it, and every plpgsql or SQL function and trigger of the migrated schema, checked in under
// server/src/db/sql/. This test makes them again and compares; `pnpm sql:update` writes them.

const dir = path.resolve(import.meta.dirname, '../../server/src/db/sql')
/** Statements the tests build once for themselves (compiled-once.test.ts) are not the API's. */
const ours = (name: string) => !name.startsWith('test/')

let t: TestApp
beforeAll(async () => {
  // The app makes every repository, and with them every statement built once.
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const KEYWORDS =
  /\s+(?=(?:with|select|from|where|and|or|union all|union|insert into|update|set|delete from|returning|inner join|left join|cross join lateral|cross join|join|on conflict|order by|group by|limit|values)\s)/gi

/** One clause a line, outside quoted text: the compiler writes a statement on one line. */
function lines(text: string): string {
  return text
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(KEYWORDS, '\n  ')))
    .join('')
    .replace(/^\s+/, '')
}

describe('the reviewable SQL', () => {
  it('of every statement built once is the one checked in', async () => {
    const names = [...statementsBuiltOnce().keys()].filter(ours).sort()
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) {
      const statement = statementsBuiltOnce().get(name)?.()
      if (!statement) continue
      const params = statement.parameters.map((p, i) =>
        'value' in p ? `-- $${i + 1}: ${p.value}` : `-- $${i + 1}: ${JSON.stringify(p.constant)} (constant)`,
      )
      const text = [
        `-- ${name}: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.`,
        ...params,
        `${lines(statement.sql)};`,
        '',
      ].join('\n')
      await expect(text).toMatchFileSnapshot(path.join(dir, `${name}.sql`))
    }
    // A statement gone takes its file with it.
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.sql'))
    expect(files.sort()).toEqual(names.map((n) => `${n}.sql`).sort())
  })

  it('of every function and trigger of the schema is the one checked in', async () => {
    const { rows: functions } = await sql<{ name: string; definition: string }>`
      select p.proname as name, pg_get_functiondef(p.oid) as definition
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      join pg_language l on l.oid = p.prolang
      where n.nspname = 'public' and l.lanname in ('plpgsql', 'sql')
      order by p.proname, pg_get_function_identity_arguments(p.oid)`.execute(t.db)
    expect(functions.length).toBeGreaterThan(0)
    const byName = new Map<string, string[]>()
    for (const f of functions)
      byName.set(f.name, [...(byName.get(f.name) ?? []), `${f.definition.trim()};\n`])
    for (const [name, definitions] of byName) {
      const text = [`-- ${name}: as migrated. Made by pnpm sql:update.`, ...definitions].join('\n')
      await expect(text).toMatchFileSnapshot(path.join(dir, 'functions', `${name}.sql`))
    }
    const { rows: triggers } = await sql<{ definition: string }>`
      select pg_get_triggerdef(oid) as definition from pg_trigger
      where not tgisinternal order by tgrelid::regclass::text, tgname`.execute(t.db)
    await expect(
      [
        '-- Every trigger, as migrated. Made by pnpm sql:update.',
        ...triggers.map((r) => `${r.definition};`),
        '',
      ].join('\n'),
    ).toMatchFileSnapshot(path.join(dir, 'functions', 'triggers.sql'))
    const files = fs.readdirSync(path.join(dir, 'functions')).filter((f) => f.endsWith('.sql'))
    expect(files.sort()).toEqual([...[...byName.keys()].map((n) => `${n}.sql`), 'triggers.sql'].sort())
  })
})
