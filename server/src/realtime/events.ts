import type { EventData, EventEnvelope, EventType } from '@porchlight/shared'
import type { Trx } from '../db/transaction.ts'
import { onCommit } from '../db/transaction.ts'

/** Anything that can put an event into rooms: the socket.io server (API) or the Redis emitter (worker). */
export interface EventSink {
  emit<T extends EventType>(rooms: string | string[], type: T, data: EventData[T], openHouseId?: number): void
}

/**
 * Moves an agent's live sockets into or out of a room (a team's, its firm's). Sockets join their rooms
 * when they connect; without this a member added later would not hear the team's offers until it
 * reconnects.
 */
export interface SocketRooms {
  join(agentRoom: string, room: string): void
  leave(agentRoom: string, room: string): void
  /** Ends every socket in the room, in every process (a revoked session's). */
  disconnect(room: string): void
  /** Whether a socket of this agent is in the room, in any process (only the API process can tell). */
  watching?(agentId: number, room: string): Promise<boolean>
}

/** How services reach live clients: events into rooms, and sockets moved between rooms. */
export interface Live extends EventSink {
  rooms: SocketRooms
}

/** For a command-line tool: no live clients to tell (they refetch when they next connect). */
export const noLive: Live = {
  emit() {},
  rooms: { join() {}, leave() {}, disconnect() {} },
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
