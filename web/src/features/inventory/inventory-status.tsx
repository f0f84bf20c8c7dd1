import { INVENTORY_PROPERTY_STATUSES, InventoryPropertyStatus } from '@porchlight/shared'
import { z } from 'zod'
import { Select, SelectItem } from '../../ui/Select.tsx'

export const STATUS_REQUIRED = 'Property status is required'

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
