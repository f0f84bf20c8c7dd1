import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'

/** A statement that writes a table: which, how, and (an UPDATE) the columns it sets. */
export interface TableWrite {
  /** The table's name without underscores, lower case: `reagent` for re_agent and reAgent alike. */
  table: string
  kind: 'insert' | 'update' | 'delete'
  /** The columns an UPDATE sets, as written in the query. */
  columns: string[]
  /** What an UPDATE sets them to, where it is a plain value (not an expression). */
  values: unknown[]
}

type Listener = (write: TableWrite) => void

/** Table names as the query builder and SQL spell them (reAgent, re_agent) compare as one. */
export const tableKey = (name: string) => name.replaceAll('_', '').toLowerCase()

// Kysely's operation nodes, as far as this reads them.
type Node = OperationNode & Record<string, unknown>
const nameOf = (table: unknown): string | null => {
  const node = table as Node | undefined
  if (!node) return null
  if (node.kind === 'AliasNode') return nameOf(node.node)
  if (node.kind === 'TableNode') return (node.table as { identifier: { name: string } }).identifier.name
  return null
}
const RAW_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?/gi

/**
 * The tables whose writes this process hears as its own queries make them: who a session is and what
 * its agent may do (the session cache, modules/auth). Only these may be watched, and a statement built
 * once may not write them (compiled-once.ts).
 */
export const WATCHED = ['session', 'reAgent', 'reTeam', 'reTeamMember'] as const
export const WATCHED_TABLES: ReadonlySet<string> = new Set(WATCHED.map(tableKey))

/** The writes a statement's tree makes, CTEs included. */
export function writesOf(root: OperationNode, into: TableWrite[] = []): TableWrite[] {
  const node = root as Node
  // A write inside a CTE (with claimed as (update …) select …) is a write too.
  const ctes = (node.with as { expressions?: Array<{ expression: Node }> } | undefined)?.expressions
  for (const cte of ctes ?? []) writesOf(cte.expression, into)
  let name: string | null = null
  let kind: TableWrite['kind'] | null = null
  let columns: string[] = []
  let values: unknown[] = []
  if (node.kind === 'InsertQueryNode') {
    name = nameOf(node.into)
    kind = 'insert'
  } else if (node.kind === 'UpdateQueryNode') {
    name = nameOf(node.table)
    kind = 'update'
    const updates = (node.updates ?? []) as Array<{ column: { column: { name: string } }; value: Node }>
    columns = updates.map((u) => u.column.column.name)
    values = updates.map((u) => (u.value.kind === 'ValueNode' ? u.value.value : undefined))
  } else if (node.kind === 'DeleteQueryNode') {
    name = nameOf((node.from as { froms: unknown[] }).froms[0])
    kind = 'delete'
  } else if (node.kind === 'RawNode') {
    for (const m of (node.sqlFragments as string[]).join(' ').matchAll(RAW_WRITE)) {
      const verb = (m[1] ?? '').toLowerCase()
      const table = m[2] ?? ''
      into.push({
        table: tableKey(table),
        kind: verb.startsWith('insert') ? 'insert' : verb.startsWith('delete') ? 'delete' : 'update',
        columns: [],
        values: [],
      })
    }
  }
  if (name && kind) into.push({ table: tableKey(name), kind, columns, values })
  return into
}

/**
 * Tells this process of every write its own queries make to the tables asked for, as the statement
 * is sent and again once it has answered: what a process keeps from those tables (the session cache)
 * is forgotten at once, whoever in the process wrote. Other processes hear it from the database
 * (NOTIFY, migration 202611270001).
 */
export class WriteWatchPlugin implements KyselyPlugin {
  private readonly listeners = new Map<Listener, Set<string>>()
  private readonly pending = new WeakMap<object, TableWrite[]>()

  /** Calls `listener` for each write to one of `tables`; answers the function that stops it. */
  watch(tables: ReadonlyArray<(typeof WATCHED)[number]>, listener: Listener): () => void {
    this.listeners.set(listener, new Set(tables.map(tableKey)))
    return () => this.listeners.delete(listener)
  }

  private tell(writes: TableWrite[]) {
    for (const [listener, tables] of this.listeners) {
      for (const write of writes) if (tables.has(write.table)) listener(write)
    }
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.listeners.size > 0) {
      const writes = writesOf(args.node)
      if (writes.length > 0) {
        this.pending.set(args.queryId, writes)
        this.tell(writes)
      }
    }
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const writes = this.pending.get(args.queryId)
    if (writes) {
      this.pending.delete(args.queryId)
      this.tell(writes)
    }
    return args.result
  }
}
