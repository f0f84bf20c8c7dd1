import { type InventoryItem, messages } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { type Column, DataTable } from '../../ui/DataTable.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { Link } from '../../ui/Link.tsx'
import { ListToolbar, type ListView } from '../../ui/list-toolbar.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { NARROW_SCREEN, useMediaQuery } from '../../ui/use-media-query.ts'
import { type MapPoint, PropertyMapCard } from '../maps/property-map-card.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { blockedReason, scheduleBlockedReason as itemScheduleBlocked } from './inventory-status.tsx'
import { inventoryQueryOptions, useDeleteInventoryMutation } from './queries.ts'

interface InventoryListProps {
  agentId: number
  /** Open houses may not be created now (plan limit): Schedule Open House says why instead. */
  scheduleBlockedReason: string | null
  view: ListView
  onViewChange: (view: ListView) => void
  /** The list shows word of an action: the screen's older message goes (one message at a time). */
  onMessage?: () => void
}

// SPEC §5: a Team Lead schedules for a teammate, and a house from its own inventory cannot be theirs.
const TEAM_LEAD_REASON =
  'You schedule open houses for your teammates: use Schedule Open House above to add the property for them.'

/** 'My Inventory' (SPEC §2): the agent's properties with Edit, Delete and Schedule Open House. */
export function InventoryList({
  agentId,
  scheduleBlockedReason,
  view,
  onViewChange,
  onMessage,
}: InventoryListProps) {
  const query = useSuspenseQuery(inventoryQueryOptions(agentId))
  const items = query.data
  const narrow = useMediaQuery(NARROW_SCREEN)
  const shownView: ListView = narrow ? 'grid' : view
  const [deleting, setDeleting] = useState<InventoryItem | null>(null)
  const [result, setShownResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const setResult = (next: { tone: 'success' | 'error'; text: string } | null) => {
    setShownResult(next)
    if (next) onMessage?.()
  }
  const remove = useDeleteInventoryMutation(agentId)
  const { agent } = useSessionInfo()
  const scheduleReason = agent?.reAgentRole === 'Team Lead' ? TEAM_LEAD_REASON : scheduleBlockedReason

  const confirmDelete = () => {
    if (!deleting) return
    remove.mutate(deleting.id, {
      onSuccess: (answer) => setResult({ tone: 'success', text: answer.message }),
      onError: (error) =>
        setResult({ tone: 'error', text: errorMessage(error, messages.inventoryDeleteFailed) }),
      onSettled: () => setDeleting(null),
    })
  }

  const actions = (item: InventoryItem) => (
    <InventoryActions
      item={item}
      scheduleBlockedReason={scheduleReason}
      onDelete={() => {
        setResult(null)
        setDeleting(item)
      }}
    />
  )

  const empty = (
    <>
      <p>Your inventory is empty. Add a property to schedule its first open house.</p>
      <p className="empty-state__action">
        <Link to="/reinventory/new" variant="button-primary">
          Add Property To My Inventory
        </Link>
      </p>
    </>
  )

  const points: MapPoint[] = items.flatMap(({ id, reProperty: p }) =>
    p.propertyLatitude !== null && p.propertyLongitude !== null
      ? [
          {
            id,
            latitude: p.propertyLatitude,
            longitude: p.propertyLongitude,
            title: p.propertyAddress1,
            address: p.completePropertyAddress,
          },
        ]
      : [],
  )

  return (
    <div className="oh-list">
      <ListToolbar
        count={items.length}
        noun={['property', 'properties']}
        view={view}
        onViewChange={onViewChange}
        showViewToggle={!narrow}
        onRefresh={() => query.refetch()}
      />
      {result && <Alert tone={result.tone} title={result.text} />}
      {shownView === 'list' ? (
        <DataTable caption="My Inventory" columns={columns(actions)} rows={items} emptyHint={empty} />
      ) : items.length === 0 ? (
        <div className="empty-state">{empty}</div>
      ) : (
        <>
          <ul className="oh-grid" aria-label="My Inventory">
            {items.map((item) => (
              <li key={item.id}>
                <article className="card oh-card" aria-labelledby={`inventory-${item.id}-title`}>
                  <header className="oh-card__header">
                    <div className="oh-card__badges">
                      <span className="inventory-status">{item.reInventoryPropertyStatus}</span>
                      <span className="oh-card__for">{item.reProperty.propertyType}</span>
                    </div>
                    <h3 id={`inventory-${item.id}-title`} className="oh-card__title">
                      {item.reProperty.propertyAddress1}
                      {item.reProperty.propertyAddress2 ? `, ${item.reProperty.propertyAddress2}` : ''}
                    </h3>
                    <p className="oh-card__place">
                      {item.reProperty.propertyCity}, {item.reProperty.propertyState}{' '}
                      {item.reProperty.propertyZipCode}
                    </p>
                  </header>
                  <dl className="oh-card__facts">
                    <div>
                      <dt>County</dt>
                      <dd>{item.reProperty.propertyCounty ?? '—'}</dd>
                    </div>
                    <div>
                      <dt>Country</dt>
                      <dd>{item.reProperty.propertyCountry}</dd>
                    </div>
                    <div>
                      <dt>Open house</dt>
                      <dd>{item.reInventoryOpenHouseStatus}</dd>
                    </div>
                  </dl>
                  {actions(item)}
                </article>
              </li>
            ))}
          </ul>
          {!narrow && points.length > 0 && <PropertyMapCard label="Map of My Inventory" points={points} />}
        </>
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this property?"
        confirmLabel="Yes, delete"
        onConfirm={confirmDelete}
        isPending={remove.isPending}
      >
        {deleting && (
          <p>
            Are you sure you want to delete {deleting.reProperty.completePropertyAddress} from your inventory?
          </p>
        )}
      </ConfirmDialog>
    </div>
  )
}

function InventoryActions({
  item,
  scheduleBlockedReason,
  onDelete,
}: {
  item: InventoryItem
  scheduleBlockedReason: string | null
  onDelete: () => void
}) {
  const blocked = blockedReason(item)
  const where = <span className="visually-hidden"> {item.reProperty.propertyAddress1}</span>
  const scheduleReason = itemScheduleBlocked(item) ?? scheduleBlockedReason
  return (
    <div className="oh-actions">
      {scheduleReason ? (
        <DisabledLink variant="button-primary" className="link--sm" reason={scheduleReason}>
          Schedule Open House{where}
        </DisabledLink>
      ) : (
        <Link
          to="/openhouses/schedule"
          search={{ rePropertyId: item.reProperty.id, fromPage: 'REInventoryView', reInventoryId: item.id }}
          variant="button-primary"
          className="link--sm"
        >
          Schedule Open House{where}
        </Link>
      )}
      <Link
        to="/reinventory/$reInventoryId/edit"
        params={{ reInventoryId: item.id }}
        variant="button-secondary"
        className="link--sm"
      >
        Edit{where}
      </Link>
      {blocked ? (
        <DisabledButton size="sm" reason={blocked}>
          Delete{where}
        </DisabledButton>
      ) : (
        <Button size="sm" onPress={onDelete}>
          Delete{where}
        </Button>
      )}
    </div>
  )
}

function columns(actions: (item: InventoryItem) => ReactNode): Column<InventoryItem>[] {
  return [
    {
      key: 'address',
      header: 'Address',
      cell: (item) => (
        <>
          <strong>{item.reProperty.propertyAddress1}</strong>
          <br />
          <span className="oh-card__muted">
            {item.reProperty.propertyCity}, {item.reProperty.propertyState} {item.reProperty.propertyZipCode}
          </span>
        </>
      ),
    },
    { key: 'type', header: 'Property type', cell: (item) => item.reProperty.propertyType },
    { key: 'status', header: 'Status', cell: (item) => item.reInventoryPropertyStatus },
    { key: 'openHouse', header: 'Open house', cell: (item) => item.reInventoryOpenHouseStatus },
    { key: 'country', header: 'Country', cell: (item) => item.reProperty.propertyCountry },
    { key: 'actions', header: 'Actions', className: 'oh-table__actions', cell: actions },
  ]
}
