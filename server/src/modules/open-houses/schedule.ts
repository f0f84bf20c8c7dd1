import { messages } from '@porchlight/shared'
import { isUniqueViolation } from '../../db/errors.ts'
import type { Trx } from '../../db/transaction.ts'
import { ConflictError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { slotInstant } from './time.ts'

/** When a schedule starts and ends; null where the date or a time is still flexible. */
export function instants(s: {
  scheduledDate: string | null
  scheduledStartTime: string
  scheduledEndTime: string
  openHouseTimezone: string
}) {
  return {
    startsAt: slotInstant(s.scheduledDate, s.scheduledStartTime, s.openHouseTimezone),
    endsAt: slotInstant(s.scheduledDate, s.scheduledEndTime, s.openHouseTimezone),
  }
}

/** A unique violation on save means the listing already has an open house at that time. */
export function rethrowDuplicate(err: unknown): never {
  if (isUniqueViolation(err))
    throw new ConflictError('OPEN_HOUSE_ALREADY_SCHEDULED', messages.openHouseAlreadyScheduled)
  throw err
}

/** An auto-clone open house gets a job for the moment it ends (SPEC §4, auto-clone). */
export async function scheduleAutoClone(
  outbox: Outbox,
  trx: Trx,
  row: { id: number; autoCloneOpenHouseFlag: boolean; endsAt: Date | string | null },
) {
  if (row.autoCloneOpenHouseFlag && row.endsAt) {
    await outbox.add(trx, 'auto-clone', 'clone', { openHouseId: row.id }, { runAt: new Date(row.endsAt) })
  }
}
