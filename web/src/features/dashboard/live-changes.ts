import { type DashboardStatistics, STATISTICS_COLUMNS, type StatisticsSummary } from '@porchlight/shared'
import { hashKey, type QueryFunctionContext, type QueryKey } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'

/**
 * The dashboard's queries fetch at most once per this long each. Socket events make them stale in
 * bursts (a Team Lead's dashboard hears a `stats.changed` per member's change); the live bridge gathers
 * them and never refetches over a request under way, so a fetch that waits out the rest of the 500 ms
 * before asking still answers with the last change in it (the trailing refetch).
 */
export const MIN_REFETCH_MS = 500

const lastAsked = new Map<string, number>()

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop)
      resolve()
    }, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', stop, { once: true })
  })
}

/**
 * Wraps a query function so that its query asks the server at most once per MIN_REFETCH_MS: a fetch
 * that comes sooner waits for its turn (an abort meanwhile sends nothing). Its start is recorded per
 * query key, so each of the dashboard's queries keeps its own pace.
 */
export function paced<T, K extends QueryKey>(
  fetch: (context: QueryFunctionContext<K>) => Promise<T>,
  now: () => number = Date.now,
): (context: QueryFunctionContext<K>) => Promise<T> {
  return async (context) => {
    const key = hashKey(context.queryKey)
    const wait = (lastAsked.get(key) ?? Number.NEGATIVE_INFINITY) + MIN_REFETCH_MS - now()
    if (wait > 0) await pause(wait, context.signal)
    lastAsked.set(key, now())
    return fetch(context)
  }
}

/** How long a changed row stays highlighted (DESIGN.md: live changes are shown, then settle). */
const HIGHLIGHT_MS = 6_000

export interface LiveChanges {
  /** Per table ('overall' or a team id), the agents whose numbers just changed. */
  changed: ReadonlyMap<string, ReadonlySet<number>>
  /** What changed, in words, for the polite live region; '' until something does. */
  announcement: string
}

const NONE: ReadonlySet<number> = new Set()
export const changedIn = (changes: LiveChanges, table: string) => changes.changed.get(table) ?? NONE

function tables(stats: DashboardStatistics): Map<string, { title: string; rows: StatisticsSummary[] }> {
  const all = new Map([['overall', { title: 'Overall Open House Summary', rows: [stats.overall] }]])
  for (const team of stats.teamSummaries) {
    all.set(String(team.reTeamId), { title: team.reTeamName, rows: team.members })
  }
  return all
}

function describe(before: StatisticsSummary | undefined, after: StatisticsSummary): string[] {
  return STATISTICS_COLUMNS.filter(({ key }) => (before?.[key] ?? 0) !== after[key]).map(
    ({ key, label }) => `${label} ${after[key]}`,
  )
}

/**
 * Compares each new answer of the dashboard statistics with the one before (TanStack Query keeps the
 * same object while nothing changed), highlights the rows whose numbers moved and says what moved.
 */
export function useLiveChanges(stats: DashboardStatistics | undefined): LiveChanges {
  const previous = useRef<DashboardStatistics | undefined>(undefined)
  const [changes, setChanges] = useState<LiveChanges>({ changed: new Map(), announcement: '' })

  useEffect(() => {
    const before = previous.current
    previous.current = stats
    if (!before || !stats || before === stats) return
    const changed = new Map<string, Set<number>>()
    const said: string[] = []
    const old = tables(before)
    for (const [key, { title, rows }] of tables(stats)) {
      const oldRows = new Map(old.get(key)?.rows.map((r) => [r.reAgentId, r]))
      for (const row of rows) {
        const moved = describe(oldRows.get(row.reAgentId), row)
        if (moved.length === 0) continue
        changed.set(key, (changed.get(key) ?? new Set()).add(row.reAgentId))
        said.push(`${title}: ${row.reAgentFullName}, ${moved.join(', ')}.`)
      }
    }
    if (said.length === 0) return
    setChanges({ changed, announcement: `Statistics updated. ${said.join(' ')}` })
  }, [stats])

  useEffect(() => {
    if (changes.changed.size === 0) return
    const timer = setTimeout(
      () => setChanges((current) => ({ ...current, changed: new Map() })),
      HIGHLIGHT_MS,
    )
    return () => clearTimeout(timer)
  }, [changes.changed])

  return changes
}
