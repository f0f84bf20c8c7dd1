import {
  type Compilable,
  type CompiledQuery,
  type Expression,
  type Kysely,
  type Transaction,
  ValueNode,
} from 'kysely'
import { WATCHED_TABLES, writesOf } from './write-watch.ts'

/** Makes a value's type opaque: it may be bound, never read (write-only members keep its shape apart). */
declare class Opaque<T> {
  private constructor()
  // Function's own members, hidden: `.length` or `.name` on a parameter fails to compile.
  private readonly length: never
  private readonly name: never
  private readonly opaque: T
}

/**
 * A value of a statement built once, while it is built: not the value but where it goes. Kysely binds
 * it wherever a value of type T goes (`where(col, '=', p)`, `values({ col: p })`, `sql\`${p}\``,
 * `eb.val(p)`), and nothing else may be done with it: not a boolean (`$if(p, …)` fails to compile), no
 * members (`.length` fails), and a test of it (`if (p)`, `p ? … : …`, `p && …`) fails as a test of a
 * function that is always defined (TS2774). The statement's shape cannot depend on its values.
 */
export type Param<T> = Opaque<T> & Expression<T> & ((eb: unknown) => Expression<T>)

/** The values of a statement built once, each as a Param. */
export type Params<V> = { readonly [K in keyof V]: Param<V[K]> }

/** Values or their Params: for a predicate used in statements built once and built per call alike. */
export type Bindable<V> = { readonly [K in keyof V]: V[K] | Param<V[K]> }

/** Where each value goes in the compiled statement's parameters. */
class Slot {
  constructor(readonly key: PropertyKey) {}
}

/**
 * A Param at run time: a function (so Kysely's value parsers call it as an expression factory) that
 * answers the slot's value node, and is the slot itself where Kysely takes it as a plain value.
 */
function paramFor(key: PropertyKey, keys: Map<unknown, PropertyKey>): Param<unknown> {
  const node = ValueNode.create(new Slot(key))
  const expression = { expressionType: undefined, toOperationNode: () => node }
  const param = Object.assign(() => expression, expression)
  keys.set(param, key)
  return param as unknown as Param<unknown>
}

/** Refused when it is built: the write watch (write-watch.ts) sees a statement built once only then. */
export class WatchedTableWrite extends Error {
  constructor(table: string) {
    super(
      `A statement built once must not write ${table}: the write watch sees it only when it is built, ` +
        'and the session cache would keep what it changed. Build it per call.',
    )
  }
}

/** Every statement built once in this process, by name (the reviewable SQL of db/sql/, its test). */
const statements = new Map<string, () => CompiledStatement>()

/** A statement built once, as sent: its text, and the name of the value each parameter takes. */
export interface CompiledStatement {
  sql: string
  /** Per parameter, the value's name, or the constant the statement itself holds. */
  parameters: Array<{ value: string } | { constant: unknown }>
}

/** The statements built once so far in this process (by the repositories made so far), by name. */
export function statementsBuiltOnce(): ReadonlyMap<string, () => CompiledStatement> {
  return statements
}

/**
 * A statement built and compiled once, then run with new values: for the hottest statements, where
 * building it (Kysely's tree, the plugins' transforms, the compiler) is a large share of a request
 * (decision 017). `build` gets each value as a Param, which can only be bound: every run has the same
 * text, and keeps its prepared plan (decision 016). A statement that writes a watched table is refused
 * when it is built (WatchedTableWrite). Each result still goes through the plugins (camelCase). A run
 * goes to `on`: the caller's transaction, or the pool.
 */
export function compiledOnce<V extends object, R, DB>(
  db: Kysely<DB>,
  /** What it is, for its reviewable SQL (db/sql/<name>.sql). */
  name: string,
  build: (values: Params<V>) => Compilable<R>,
): (values: V, on?: Kysely<DB> | Transaction<DB>) => Promise<R[]> {
  let compiled: { query: CompiledQuery<R>; keys: Array<PropertyKey | null> } | undefined
  statements.set(name, () => {
    compiled ??= compile(build)
    const { query, keys } = compiled
    return {
      sql: query.sql,
      parameters: query.parameters.map((constant, i) => {
        const key = keys[i]
        return key === null || key === undefined ? { constant } : { value: String(key) }
      }),
    }
  })
  return async (values, on = db) => {
    compiled ??= compile(build)
    const { query, keys } = compiled
    const parameters = query.parameters.map((constant, i) => {
      const key = keys[i]
      return key === null || key === undefined ? constant : values[key as keyof V]
    })
    return (await on.executeQuery<R>({ ...query, parameters })).rows
  }
}

function compile<V extends object, R>(build: (values: Params<V>) => Compilable<R>) {
  const params = new Map<PropertyKey, Param<unknown>>()
  const keys = new Map<unknown, PropertyKey>()
  const values = new Proxy({} as Params<V>, {
    get: (_, key) => {
      let param = params.get(key)
      if (!param) {
        param = paramFor(key, keys)
        params.set(key, param)
      }
      return param
    },
  })
  const query = build(values).compile()
  for (const write of writesOf(query.query)) {
    if (WATCHED_TABLES.has(write.table)) throw new WatchedTableWrite(write.table)
  }
  return {
    query,
    keys: query.parameters.map((p) => (p instanceof Slot ? p.key : (keys.get(p) ?? null))),
  }
}
