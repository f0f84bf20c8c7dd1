import { useState } from 'react'
import { Button } from '../../ui/Button.tsx'
import { ToggleButton, ToggleButtonGroup } from '../../ui/ToggleButtonGroup.tsx'

export type ListView = 'grid' | 'list'

interface ListToolbarProps {
  count: number
  /** Singular and plural, e.g. ['open house', 'open houses']. */
  noun: [string, string]
  view: ListView
  onViewChange: (view: ListView) => void
  /** SPEC §2: no List/Grid toggle on narrow screens (they always show cards). */
  showViewToggle: boolean
  onRefresh: () => Promise<unknown>
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
  const refresh = async () => {
    setRefreshing(true)
    try {
      await onRefresh()
    } finally {
      setRefreshing(false)
    }
  }
  return (
    <div className="list-toolbar">
      <p className="list-toolbar__count">
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
    </div>
  )
}
