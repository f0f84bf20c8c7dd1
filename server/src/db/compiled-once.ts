import type { Compilable, CompiledQuery } from 'kysely'
import type { Db } from './database.ts'
import type { Trx } from './transaction.ts'

/** Stands for one of the values while the statement is built; the compiled statement's parameter. */
class Slot {
  constructor(readonly key: PropertyKey) {}
}

/**
 * A statement built and compiled once, then run with new values: for the hottest statements, where
 * building it (Kysely's tree, the plugins' transforms, the compiler) is a large share of a request.
 * `build` gets a placeholder for each value and must use it only as a value, never to choose the
 * statement's shape (no `if`, no `.length`), so that every run has the same text. Each result still
 * goes through the plugins (camelCase); the write watch (write-watch.ts) sees the statement only when
 * it is built, so it must not write the tables that watch is for. A run goes to `on`: the caller's
 * transaction, or the pool.
 */
export function compiledOnce<V extends object, R>(
  db: Db,
  build: (values: V) => Compilable<R>,
): (values: V, on?: Db | Trx) => Promise<R[]> {
  let compiled: { query: CompiledQuery<R>; keys: Array<PropertyKey | null> } | undefined
  return async (values, on = db) => {
    if (!compiled) {
      const placeholders = new Proxy({}, { get: (_, key) => new Slot(key) }) as V
      const query = build(placeholders).compile()
      compiled = { query, keys: query.parameters.map((p) => (p instanceof Slot ? p.key : null)) }
    }
    const { query, keys } = compiled
    const parameters = query.parameters.map((constant, i) => {
      const key = keys[i]
      return key === null || key === undefined ? constant : values[key as keyof V]
    })
    return (await on.executeQuery<R>({ ...query, parameters })).rows
  }
}
