import { type DashboardStatistics, STATISTICS_COLUMNS, type StatisticsSummary } from '@porchlight/shared'
import { useEffect, useRef, useState } from 'react'

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
