import { messages } from '@porchlight/shared'
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react'
import { Button } from './Button.tsx'
import { cx } from './cx.ts'
import { Select, SelectItem } from './Select.tsx'
import './DataTable.css'

export interface Column<T> {
  key: string
  header: string
  cell: (row: T) => ReactNode
  className?: string
}

/** SPEC §9: tables show 10 rows a page, with 10, 15, 20, 25 or 30 to choose from. */
const PAGE_SIZES = [10, 15, 20, 25, 30] as const

export interface DataTableProps<T extends { id: number }> {
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string
  columns: Column<T>[]
  rows: T[]
  /** Shown under SPEC's 'There are no records to display' when there are none: what to do next. */
  emptyHint?: ReactNode
  rowClassName?: (row: T) => string | undefined
}

/**
 * A paged table: semantic rows and headers, a page-size choice and Previous/Next buttons. Rows that fit
 * on the smallest page show without that chrome: there is nothing to page through or resize.
 */
export function DataTable<T extends { id: number }>({
  caption,
  columns,
  rows,
  emptyHint,
  rowClassName,
}: DataTableProps<T>) {
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0])
  const [requestedPage, setPage] = useState(0)
  const pages = Math.max(1, Math.ceil(rows.length / pageSize))
  // Rows can leave live (a claimed open house): never stay on a page that no longer exists.
  const page = Math.min(requestedPage, pages - 1)
  const shown = rows.slice(page * pageSize, (page + 1) * pageSize)
  const first = rows.length === 0 ? 0 : page * pageSize + 1
  const scrollRef = useRef<HTMLDivElement>(null)
  const scrolls = useScrollsSideways(scrollRef)
  const paged = rows.length > PAGE_SIZES[0]

  return (
    <div className="data-table">
      {/* Scrolling sideways (a narrow screen), the table is a named stop in the Tab order so the
          keyboard can scroll it too. */}
      <div
        ref={scrollRef}
        className="data-table__scroll"
        {...(scrolls ? { role: 'region', 'aria-label': caption, tabIndex: 0 } : {})}
      >
        <table className="data-table__table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={column.className}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="data-table__empty">
                  <p>{messages.noRecordsToDisplay}</p>
                  {emptyHint && <div className="data-table__hint">{emptyHint}</div>}
                </td>
              </tr>
            ) : (
              shown.map((row) => (
                <tr key={row.id} className={rowClassName?.(row)}>
                  {columns.map((column) => (
                    <td key={column.key} className={cx(column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {paged && (
        <div className="data-table__footer">
          <Select
            label="Rows per page"
            className="data-table__size"
            value={pageSize}
            onChange={(key) => {
              setPageSize(Number(key))
              setPage(0)
            }}
          >
            {PAGE_SIZES.map((size) => (
              <SelectItem key={size} id={size}>
                {String(size)}
              </SelectItem>
            ))}
          </Select>
          <p className="data-table__range" aria-live="polite">
            {first}–{Math.min(rows.length, (page + 1) * pageSize)} of {rows.length}
          </p>
          <div className="data-table__pager">
            <Button size="sm" isDisabled={page === 0} onPress={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button size="sm" isDisabled={page >= pages - 1} onPress={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        </div>
      )}
    </div>
  )
}

/** Whether the element's content is wider than the element, kept up to date as either resizes. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    for (const child of element.children) observer.observe(child)
    return () => observer.disconnect()
  }, [ref])
  return scrolls
}
