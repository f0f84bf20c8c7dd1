import pg from 'pg'

const INT8 = 20
const NUMERIC = 1700
const DATE = 1082

/**
 * How our values come back, for pg and PGlite alike: ids fit in a double; numeric money and
 * percentages are small; dates stay calendar strings.
 */
export const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  [INT8]: Number,
  [NUMERIC]: Number,
  [DATE]: (v) => v,
}
for (const [oid, parse] of Object.entries(TYPE_PARSERS)) pg.types.setTypeParser(Number(oid), parse)

/**
 * How long a pooled connection may sit idle before it is closed (decision 025). A new connection is
 * dear: its server process loads the catalog and compiles the statistics triggers, and each statement
 * is prepared again on it (decision 016). With pg's default of 10 s, the first burst after a quiet
 * spell (the first guests at a door) opened up to twenty connections at once, and its first sign-ins
 * waited 0.3–1 s.
 */
export const IDLE_CONNECTION_MS = 10 * 60_000

/**
 * Settings every pooled connection starts with (decision 027). `jit=off`: PostgreSQL compiles a
 * statement to machine code when its estimated cost passes `jit_above_cost`, and an estimate swells
 * with a table's size or a 200-element array parameter while the statement itself still runs in a
 * millisecond. The team read of 200 agents at once (policy/access.ts) ran in 0.5 ms and spent 374 ms
 * compiling. Our statements are short: none gains from it.
 */
export const CONNECTION_OPTIONS = '-c jit=off'

/** Statements a connection prepares at most (decision 016); beyond them, the rest go unprepared. */
export const PREPARED_PER_CONNECTION = 500

/** The pool's settings for `url`, `size` connections at most. */
export function poolSettings(url: string, size: number): pg.PoolConfig {
  return {
    connectionString: url,
    max: size,
    // Pipelining: a statement queued while another is out is sent at once, not after its answer (the
    // driver's deferred BEGIN rides on the statement after it, decision 022).
    pipeline: true,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    options: CONNECTION_OPTIONS,
  }
}
