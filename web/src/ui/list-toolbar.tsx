import { useState } from 'react'
import { Button } from './Button.tsx'
import { clockTime } from './format.ts'
import { ToggleButton, ToggleButtonGroup } from './ToggleButtonGroup.tsx'
import './card-list.css'

export type ListView = 'grid' | 'list'

interface ListToolbarProps {
  count: number
  /** Singular and plural, e.g. ['open house', 'open houses']. */
  noun: [string, string]
  view: ListView
  onViewChange: (view: ListView) => void
  /** SPEC §2: no List/Grid toggle on narrow screens (they always show cards). */
  showViewToggle: boolean
  /** A refetch: its result says whether it failed, and since when the list is what it shows. */
  onRefresh: () => Promise<{ isError: boolean; dataUpdatedAt: number }>
}

/** The bar above every list: how many, the List/Grid switch and Refresh (SPEC §2). */
export function ListToolbar({
  count,
  noun,
  view,
  onViewChange,
  showViewToggle,
  onRefresh,
}: ListToolbarProps) {
  const [refreshing, setRefreshing] = useState(false)
  // A failed Refresh says so; the list keeps what it had (not a silent no-op).
  const [failedSince, setFailedSince] = useState<number | null>(null)
  const refresh = async () => {
    setRefreshing(true)
    try {
      const result = await onRefresh()
      setFailedSince(result.isError ? result.dataUpdatedAt : null)
    } finally {
      setRefreshing(false)
    }
  }
  return (
    <div className="list-toolbar">
      {/* Where focus goes when the last open house leaves a list that has no empty-state message. */}
      <p className="list-toolbar__count" tabIndex={-1} data-focus-fallback="">
        {count} {count === 1 ? noun[0] : noun[1]}
      </p>
      <div className="list-toolbar__controls">
        {showViewToggle && (
          <ToggleButtonGroup
            aria-label="View"
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={[view]}
            onSelectionChange={(keys) => {
              const [next] = keys
              if (next === 'grid' || next === 'list') onViewChange(next)
            }}
          >
            <ToggleButton id="list">List</ToggleButton>
            <ToggleButton id="grid">Grid</ToggleButton>
          </ToggleButtonGroup>
        )}
        <Button onPress={refresh} isPending={refreshing}>
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M16 10a6 6 0 1 1-1.8-4.3M16 3.5v3.2h-3.2" />
          </svg>
          Refresh
        </Button>
      </div>
      {failedSince !== null && (
        <p className="list-toolbar__error" role="alert">
          {failedSince > 0
            ? `Couldn't refresh. Showing what we had at ${clockTime(failedSince)}.`
            : "Couldn't refresh."}
        </p>
      )}
    </div>
  )
}
