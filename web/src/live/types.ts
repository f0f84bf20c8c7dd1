import type { EventEnvelope, EventType } from '@porchlight/shared'
import type { QueryClient, QueryKey } from '@tanstack/react-query'
import type { LiveNotice } from './store.ts'

/** What an event's cache update may do; the bridge gives one to each event it applies. */
export interface LiveContext {
  queryClient: QueryClient
  /** The signed-in agent. */
  agentId: number
  /** Resolves once this event's `invalidates` have refetched what is on screen. */
  refetched: Promise<void>
  /** Invalidates more keys, coalesced like the table's (e.g. a few seconds later). */
  invalidate(...keys: QueryKey[]): Promise<void>
  /** Runs `run` after `ms`, unless the bridge stops first. */
  later(ms: number, run: () => void): void
  /** Says `text` through the polite live region (LiveAnnouncer). */
  announce(text: string): void
  notice(openHouseId: number): LiveNotice | undefined
  setNotice(openHouseId: number, notice: LiveNotice | null): void
  /** Highlights (or stops highlighting) an attendee row of the board. */
  markFresh(openHouseId: number, signedInAt: string, on: boolean): void
  /** Whether a page on screen watches this open house's room (the host's board). */
  watching(openHouseId: number): boolean
}

/** What one socket event does to the query cache. */
export interface LiveRule<T extends EventType> {
  /**
   * Query keys (prefixes) made stale; the mounted ones refetch, coalesced per key (live/coalesce.ts).
   * `agentId` is the signed-in agent's.
   */
  invalidates?: (event: EventEnvelope<T>, agentId: number) => readonly QueryKey[]
  /** A change applied at once, before the refetch: setQueryData, notices, announcements. */
  update?: (event: EventEnvelope<T>, live: LiveContext) => void
}

export type LiveTable = { [T in EventType]?: LiveRule<T> }
