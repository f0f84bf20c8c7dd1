import { STATISTICS_COLUMNS, type StatisticsSummary } from '@porchlight/shared'
import type { ReactNode } from 'react'
import { type Column, DataTable } from '../../ui/DataTable.tsx'

type Row = StatisticsSummary & { id: number }

const columns: Column<Row>[] = [
  { key: 'reAgentFullName', header: 'Agent', cell: (row) => row.reAgentFullName },
  ...STATISTICS_COLUMNS.map(
    ({ key, label }): Column<Row> => ({
      key,
      header: label,
      cell: (row) => row[key],
      className: 'stats-table__number',
    }),
  ),
]

interface StatisticsTableProps {
  caption: string
  rows: StatisticsSummary[]
  /** Agents whose numbers just changed live: their rows are highlighted for a moment. */
  changed: ReadonlySet<number>
  emptyHint?: ReactNode
}

/**
 * SPEC §2 statistics table: Listed/Requested, Hosted/Claimed, Canceled, Total Leads and Leads Without
 * Realtor, a row per agent, paged 10 at a time (SPEC §9); a table that fits one page shows no pager.
 */
export function StatisticsTable({ caption, rows, changed, emptyHint }: StatisticsTableProps) {
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows.map((row) => ({ ...row, id: row.reAgentId }))}
      emptyHint={emptyHint}
      rowClassName={(row) => (changed.has(row.id) ? 'stats-table__row--changed' : undefined)}
    />
  )
}
