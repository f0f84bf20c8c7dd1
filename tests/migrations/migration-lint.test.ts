// The migration lint of `pnpm lint`: a migration that would rewrite or lock a table that has rows while
// the previous release serves it is refused, with why; the same statements on a table the migration
// makes itself pass; a migration allowed with a reason passes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { findings, lintMigrations } from '@porchlight/server/src/db/migration-lint.ts'
import { afterAll, describe, expect, it } from 'vitest'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-lint-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const migration = (file: string, up: string) =>
  fs.writeFileSync(path.join(dir, `${file}.ts`), `export async function up(db) {\n${up}\n}\n`)

describe('the migration lint', () => {
  it('refuses an added NOT NULL column without a default on an existing table, and says why', async () => {
    migration(
      '202601010001-create-visits',
      "await db.schema.createTable('visit').addColumn('id', 'serial', (c) => c.primaryKey()).execute()",
    )
    migration(
      '202601010002-add-source',
      "await db.schema.alterTable('visit').addColumn('source', 'text', (c) => c.notNull()).execute()",
    )
    const { findings: found } = await lintMigrations(dir, {})
    expect(found).toHaveLength(1)
    expect(found[0]?.migration).toBe('202601010002-add-source')
    expect(found[0]?.why).toMatch(/NOT NULL column without a default to visit/)
    // Allowed with a reason (it ran already), it passes; an allowance nothing needs is reported.
    const allowed = await lintMigrations(dir, {
      '202601010002-add-source': 'ran already',
      '202601010001-create-visits': 'nothing to allow',
    })
    expect(allowed.findings).toEqual([])
    expect(allowed.allowedUnused).toEqual(['202601010001-create-visits'])
  }, 120_000)

  const existing = new Set(['prospect'])
  it.each([
    ['alter table prospect add column source text not null', /NOT NULL column without a default/],
    ['alter table "prospect" alter column "note" type varchar(80)', /changes a column's type/],
    ['create index prospect_note_idx on prospect (note)', /without CONCURRENTLY/],
    ['alter table prospect alter column note set not null', /sets NOT NULL/],
    ['alter table prospect add constraint p_fk foreign key (a) references b (id)', /NOT VALID/],
    ['alter table prospect add column token uuid default gen_random_uuid()', /volatile/],
    ['update prospect set note = lower(note)', /Backfill in batches/],
  ])('refuses `%s`', (statement, why) => {
    expect(findings(statement, existing).join('\n')).toMatch(why)
  })

  it.each([
    'alter table prospect add column source text',
    "alter table prospect add column source text not null default 'door'",
    'create index concurrently prospect_note_idx on prospect (note)',
    'alter table prospect add constraint p_fk foreign key (a) references b (id) not valid',
    'update prospect set note = null where id = 1',
    'alter table other add column source text not null',
    'create index other_idx on other (a)',
  ])('lets `%s` pass', (statement) => {
    expect(findings(statement, existing)).toEqual([])
  })
})
