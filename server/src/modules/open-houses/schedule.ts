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

/**
 * The jobs for the moment an open house ends: the auto-clone (SPEC §4), the host's capture receipt and
 * the seller's mail.
 * A new end time adds new jobs; each job checks the open house when it runs, so an earlier one for a
 * moment that has moved does nothing.
 */
export async function scheduleEnd(
  outbox: Outbox,
  trx: Trx,
  row: { id: number; autoCloneOpenHouseFlag: boolean; endsAt: Date | string | null },
  jobs: { autoClone: boolean; receipt: boolean } = { autoClone: true, receipt: true },
) {
  if (!row.endsAt) return
  const runAt = new Date(row.endsAt)
  if (jobs.autoClone && row.autoCloneOpenHouseFlag) {
    await outbox.add(trx, 'auto-clone', 'clone', { openHouseId: row.id }, { runAt })
  }
  if (jobs.receipt) {
    await outbox.add(trx, 'receipts', 'capture', { openHouseId: row.id }, { runAt })
    // The seller's mail of a link that carries its address (decision 051); nothing when none does.
    await outbox.add(trx, 'receipts', 'seller', { openHouseId: row.id }, { runAt })
  }
}
