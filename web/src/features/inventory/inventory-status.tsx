import {
  INVENTORY_PROPERTY_STATUSES,
  type InventoryItem,
  InventoryPropertyStatus,
  PROPERTY_CREATED,
  UPCOMING_OPEN_HOUSE_REASON,
} from '@porchlight/shared'
import { z } from 'zod'
import { Select, SelectItem } from '../../ui/Select.tsx'

export const STATUS_REQUIRED = 'Property status is required'

const NOT_CREATED_REASON = `Only a property with the status '${PROPERTY_CREATED}' can be deleted or scheduled.`

/**
 * Why Delete is off for this item, or null when it may be used (SPEC §4: the inventory's open-house
 * status 'Property Created' permits it; and its property status too).
 */
export function blockedReason(item: InventoryItem): string | null {
  if (item.reInventoryOpenHouseStatus !== PROPERTY_CREATED) return UPCOMING_OPEN_HOUSE_REASON
  return scheduleBlockedReason(item)
}

/**
 * Why Schedule Open House is off for this item, or null. An open house to come does not stop it: a
 * property holds a Saturday and a Sunday (issue 32); the same date twice is the server's 409.
 */
export function scheduleBlockedReason(item: InventoryItem): string | null {
  if (item.reInventoryPropertyStatus !== PROPERTY_CREATED) return NOT_CREATED_REASON
  return null
}

export const StatusField = z.object({ reInventoryPropertyStatus: InventoryPropertyStatus })

/** SPEC §5 "Property forms also require … status (inventory)". */
export function InventoryStatusSelect({
  value,
  onChange,
  errorMessage,
}: {
  value: string
  onChange: (value: string) => void
  errorMessage?: string
}) {
  return (
    <Select
      label="Property Status"
      name="reInventoryPropertyStatus"
      placeholder="Select a status"
      isRequired
      value={value || null}
      onChange={(key) => onChange(key == null ? '' : String(key))}
      errorMessage={errorMessage}
    >
      {INVENTORY_PROPERTY_STATUSES.map((status) => (
        <SelectItem key={status} id={status}>
          {status}
        </SelectItem>
      ))}
    </Select>
  )
}
