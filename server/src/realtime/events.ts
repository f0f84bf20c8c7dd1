import type { EventData, EventEnvelope, EventType } from '@porchlight/shared'
import type { Trx } from '../db/transaction.ts'
import { onCommit } from '../db/transaction.ts'

/** Anything that can put an event into rooms: the socket.io server (API) or the Redis emitter (worker). */
export interface EventSink {
  emit<T extends EventType>(rooms: string | string[], type: T, data: EventData[T], openHouseId?: number): void
}

export function envelope<T extends EventType>(
  type: T,
  data: EventData[T],
  openHouseId?: number,
): EventEnvelope<T> {
  const e: EventEnvelope<T> = { type, at: new Date().toISOString(), data }
  if (openHouseId !== undefined) e.openHouseId = openHouseId
  return e
}

/** Emits only once `trx` has committed, so no client hears of a change that was rolled back. */
export function emitAfterCommit<T extends EventType>(
  sink: EventSink,
  trx: Trx,
  rooms: string | string[],
  type: T,
  data: EventData[T],
  openHouseId?: number,
): void {
  onCommit(trx, () => sink.emit(rooms, type, data, openHouseId))
}
