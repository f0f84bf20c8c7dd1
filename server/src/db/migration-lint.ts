// `pnpm lint` step: no migration may rewrite or lock a table that already holds rows while the API
// serves it (docs/architecture.md, "Migrations: expand, then contract"). The migrations run in order on
// an embedded database in memory, each in a transaction as the migrator runs it, and every statement a
// migration sends is read against the rules below, knowing which tables were there before it (a table
// made in the same migration is empty, and anything goes on it).
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, sql } from 'kysely'
import { PGliteDialect } from 'kysely-pglite-dialect'

export const migrationsDir = path.resolve(import.meta.dirname, '../../../migrations')

/**
 * Migrations that ran already on every database there is, each with why it may stay as it is: a
 * migration is never edited once it has run, and these ran while the tables were small.
 */
export const ALLOWED: Record<string, string> = {
  '202612010050-relay-outbox-by-due-time-and-gather-mail':
    'partial indexes on outbox and mail: over open rows only, and IF NOT EXISTS, so a deployment with a large mail or outbox table builds them CONCURRENTLY by hand before the release (the migration says so)',
  '202611210006-create-teams':
    'foreign keys on re_agent to the new re_team: ran already (before this lint, 2026-11-26), while the table was small',
  '202611212000-add-auto-clone':
    'unique index on open_house: ran already (before this lint, 2026-11-26), while the table was small',
  '202611230001-add-authority':
    'backfill and NOT NULL of open_house.scheduled_by_re_agent_id, checks and indexes: ran already (before this lint, 2026-11-26), while the table was small',
  '202611240001-park-outbox-rows':
    'index on outbox: ran already (before this lint, 2026-11-26), while the table was small',
  '202611240002-lease-mail-sends':
    'mail status check widened: ran already (before this lint, 2026-11-26), while the table was small',
  '202611240004-outbox-done-when-done':
    'index on outbox: ran already (before this lint, 2026-11-26), while the table was small',
  '202611240005-verify-email-changes':
    'email_code checks: ran already (before this lint, 2026-11-26), while the table was small',
  '202611240007-prospect-list-indexes':
    'prospect list indexes: ran already (before this lint, 2026-11-26), while the table was small',
  '202611250001-add-prospect-follow-up':
    'prospect follow-up index: ran already (before this lint, 2026-11-26), while the table was small',
  '202611250003-index-prospect-sorts':
    'prospect sort indexes: ran already (before this lint, 2026-11-26), while the table was small',
  '202611250006-add-consent-ledger':
    'mail status check widened: ran already (before this lint, 2026-11-26), while the table was small',
  '202611250430-index-dashboard-windows':
    'open_house dashboard indexes: ran already (before this lint, 2026-11-26), while the table was small',
  '202611260001-add-team-webhook-endpoints':
    'webhook_endpoint index: ran already (before this lint, 2026-11-26), while the table was small',
  '202611290001-grant-firm-roles':
    're_agent.requested_role backfill and check: ran already (before this lint, 2026-11-26), while the table was small',
  '202611290002-bind-guest-tokens-to-visits':
    'open_house_attendee.client_request_id backfill, unique key and indexes: ran already (before this lint, 2026-11-26), while the table was small',
  '202611290003-wait-out-mail-outages':
    'ran already (before this lint, 2026-11-26), while the table was small',
  '202611290005-seal-secrets-check-links-mark-replays':
    'ran already (before this lint, 2026-11-26), while the table was small',
  '202611290006-allow-weekends-and-quarter-hours':
    'ran already (before this lint, 2026-11-26), while the table was small',
  '202611290007-record-unsaid-answers-and-verification-requests':
    'ran already (before this lint, 2026-11-26), while the table was small',
  '202611290010-index-unsent-mail':
    'partial index on mail: ran already (before this lint, 2026-11-26), while the table was small',
}

export interface Finding {
  migration: string
  statement: string
  why: string
}

const name = String.raw`(?:"?[\w.]+"?\.)?"?(\w+)"?`

/**
 * What in `statement` rewrites or locks an existing table (one in `existing`), each with why and what
 * to write instead; nothing for a table made earlier in the same migration.
 */
export function findings(statement: string, existing: ReadonlySet<string>): string[] {
  const text = statement.replace(/\s+/g, ' ').trim()
  const found: string[] = []
  const alter = new RegExp(`^alter table (?:if exists )?(?:only )?${name} (.*)$`, 'i').exec(text)
  if (alter && existing.has((alter[1] as string).toLowerCase())) {
    const table = (alter[1] as string).toLowerCase()
    // One ALTER TABLE may carry several actions, separated by commas outside parentheses.
    for (const action of splitActions(alter[2] as string)) {
      const a = action.toLowerCase()
      if (/^add (column )?/.test(a) && !/^add (constraint|primary|unique|check|foreign|exclude)/.test(a)) {
        const notNull = /\bnot null\b/.test(a)
        const hasDefault = /\bdefault\b/.test(a)
        if (notNull && !hasDefault) {
          found.push(
            `adds a NOT NULL column without a default to ${table}: it fails on a table with rows, and ` +
              'the running API does not write it. Add it nullable (or with a constant default), backfill ' +
              'in batches, then add NOT NULL in a later release.',
          )
        }
        if (
          hasDefault &&
          /\b(random|gen_random_uuid|uuid_generate_v4|clock_timestamp|nextval)\s*\(/.test(a)
        ) {
          found.push(
            `adds a column to ${table} whose default is volatile: PostgreSQL rewrites every row under ` +
              'an exclusive lock. Add it without the default, set the default, backfill in batches.',
          )
        }
        if (/\b(serial|bigserial|smallserial)\b|generated always as \(.*\) stored/.test(a)) {
          found.push(
            `adds a serial or stored generated column to ${table}: every row is rewritten under an ` +
              'exclusive lock. Add a plain column and fill it in batches.',
          )
        }
      }
      if (/^alter (column )?[\w"]+ (set data )?type\b/.test(a)) {
        found.push(
          `changes a column's type on ${table}: PostgreSQL rewrites the table (and its indexes) under an ` +
            'exclusive lock, and the running API still reads the old type. Add a new column, write both, ' +
            'backfill, switch reads, then drop the old one.',
        )
      }
      if (/^alter (column )?[\w"]+ set not null/.test(a)) {
        found.push(
          `sets NOT NULL on a column of ${table}: it reads every row under an exclusive lock. Add ` +
            'CHECK (col IS NOT NULL) NOT VALID, VALIDATE CONSTRAINT it in a later migration, then SET NOT NULL.',
        )
      }
      if (/^add (constraint [\w"]+ )?(foreign key|check)\b/.test(a) && !/\bnot valid\b/.test(a)) {
        found.push(
          `adds a constraint to ${table} that checks every row while holding a lock on it. Add it NOT ` +
            'VALID, then VALIDATE CONSTRAINT in a later migration (which does not block writes).',
        )
      }
      if (/^add (constraint [\w"]+ )?(unique|primary key)\b/.test(a) && !/\busing index\b/.test(a)) {
        found.push(
          `adds a unique key to ${table}, building its index with writes blocked. Build the index ` +
            'CONCURRENTLY, then ADD CONSTRAINT … USING INDEX.',
        )
      }
      if (/^set tablespace\b|^set (logged|unlogged)\b/.test(a)) {
        found.push(`rewrites ${table} under an exclusive lock (${a}).`)
      }
    }
  }
  const index = new RegExp(
    String.raw`^create (unique )?index (concurrently )?(?:if not exists )?(?:[\w"]+ )?on (?:only )?${name}`,
    'i',
  ).exec(text)
  if (index && !index[2] && existing.has((index[3] as string).toLowerCase())) {
    found.push(
      `creates an index on ${(index[3] as string).toLowerCase()} without CONCURRENTLY: writes to the ` +
        'table wait while it builds (sign-ins included). Build it CONCURRENTLY ahead of the release ' +
        '(docs/architecture.md) and allow this migration with that reason.',
    )
  }
  const update = new RegExp(String.raw`^update (?:only )?${name} (?:as \w+ )?set (.*)$`, 'i').exec(text)
  if (
    update &&
    existing.has((update[1] as string).toLowerCase()) &&
    !/\bwhere\b/i.test(update[2] as string)
  ) {
    found.push(
      `updates every row of ${(update[1] as string).toLowerCase()} in the migration's one transaction, ` +
        'each row locked until it ends. Backfill in batches from a job instead.',
    )
  }
  if (/^(vacuum full|cluster)\b/i.test(text)) found.push('rewrites a table under an exclusive lock.')
  const lock = /^lock table .* in access exclusive mode/i.test(text) || /^lock table [^;]*$/i.test(text)
  if (lock && !/\bin (access share|row share|row exclusive|share update exclusive)\b/i.test(text)) {
    found.push('takes a lock that stops reads or writes for the rest of the migration.')
  }
  return found
}

/** The comma-separated actions of an ALTER TABLE, commas inside parentheses kept. */
function splitActions(actions: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of actions) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (ch === ',' && depth === 0) {
      out.push(current.trim())
      current = ''
    } else current += ch
  }
  if (current.trim()) out.push(current.trim())
  return out
}

/** Splits raw SQL holding several statements (outside quotes and dollar-quoted bodies). */
function split(text: string): string[] {
  if (/\$\w*\$/.test(text)) return [text.trim()]
  return text
    .split(/;\s*(?=(?:[^']*'[^']*')*[^']*$)/)
    .map((part) => part.trim())
    .filter(Boolean)
}

/** Every migration in `dir` in order, with what each does to a table that existed before it. */
export async function lintMigrations(
  dir: string,
  allowed: Record<string, string> = ALLOWED,
): Promise<{ findings: Finding[]; allowedUnused: string[] }> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{12}-[\w-]+\.ts$/.test(f))
    .sort()
  const pglite = await PGlite.create('memory://', { extensions: { pg_trgm } })
  let statements: string[] = []
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema.
  const db = new Kysely<any>({
    dialect: new PGliteDialect(pglite),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql)
    },
  })
  const out: Finding[] = []
  const used = new Set<string>()
  try {
    for (const file of files) {
      const migration = file.replace(/\.ts$/, '')
      const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
        where schemaname = current_schema()`.execute(db)
      const existing = new Set(rows.map((r) => r.name))
      const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
        // biome-ignore lint/suspicious/noExplicitAny: as above.
        up: (db: Kysely<any>) => Promise<void>
      }
      statements = []
      await db.transaction().execute((trx) => mod.up(trx))
      for (const statement of statements.flatMap(split)) {
        for (const why of findings(statement, existing)) {
          if (allowed[migration]) {
            used.add(migration)
            continue
          }
          out.push({ migration, statement: statement.replace(/\s+/g, ' ').slice(0, 160), why })
        }
      }
    }
  } finally {
    await db.destroy()
  }
  return { findings: out, allowedUnused: Object.keys(allowed).filter((m) => !used.has(m)) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { findings: found, allowedUnused } = await lintMigrations(migrationsDir)
  for (const f of found) console.error(`${f.migration}: ${f.why}\n    ${f.statement}`)
  for (const m of allowedUnused)
    console.error(`${m}: allowed in server/src/db/migration-lint.ts but does nothing it needs allowing for`)
  if (found.length || allowedUnused.length) {
    console.error(
      '\nA migration runs while the API serves the previous release: see docs/architecture.md, ' +
        '"Migrations: expand, then contract". A migration that ran already may be allowed in ' +
        'server/src/db/migration-lint.ts (ALLOWED) with the reason.',
    )
    process.exit(1)
  }
}
