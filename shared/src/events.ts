/** Socket event names and payloads, shared by the server (emit) and the web (apply to cache). */

export interface OpportunityRef {
  openHouseId: number
  publishLevel: string
  publishLevelId: string | null
}

export interface EventData {
  'opportunity.published': OpportunityRef
  'opportunity.claimed': OpportunityRef & { hostingReAgentId: number; hostingReAgentName: string }
  'opportunity.withdrawn': OpportunityRef
  'openHouse.updated': { openHouseId: number }
  'openHouse.canceled': { openHouseId: number; openHouseCancelReason: string }
  'attendee.added': { openHouseId: number; firstName: string; lastInitial: string; signedInAt: string }
  'feedback.submitted': { openHouseId: number; feedbackId: number }
  'stats.changed': { reAgentId?: number; reTeamId?: number }
  'report.requested': { openHouseId: number; requestedByReAgentId: number }
  /** The seller's report of the open house changed (a visitor, feedback): refetch it. Names no one. */
  'sellerReport.changed': { openHouseId: number }
  /** This process was cut off from the others (Redis away): clients refetch what they show. */
  'sync.required': Record<string, never>
}

export type EventType = keyof EventData

export const eventTypes = [
  'opportunity.published',
  'opportunity.claimed',
  'opportunity.withdrawn',
  'openHouse.updated',
  'openHouse.canceled',
  'attendee.added',
  'feedback.submitted',
  'stats.changed',
  'report.requested',
  'sellerReport.changed',
  'sync.required',
] as const satisfies readonly EventType[]

/** Every event travels as this envelope, under a socket event named after its type. */
export interface EventEnvelope<T extends EventType = EventType> {
  type: T
  at: string
  openHouseId?: number
  data: EventData[T]
}

export type ServerToClientEvents = {
  [T in EventType]: (event: EventEnvelope<T>) => void
}

export type WatchAck =
  | { ok: true }
  | { ok: false; error: { code: 'FORBIDDEN' | 'NOT_FOUND' | 'BAD_REQUEST' } }

export interface ClientToServerEvents {
  watch: (payload: { openHouseId: number }, ack: (result: WatchAck) => void) => void
  unwatch: (payload: { openHouseId: number }) => void
}

/** Room names of DESIGN.md "Real time". */
export const rooms = {
  agent: (id: number) => `agent:${id}`,
  openHouse: (id: number) => `openhouse:${id}`,
  openHousePublic: (id: number) => `openhouse:${id}:public`,
  team: (id: number) => `team:${id}`,
  marketAll: 'market:all',
  marketFirm: (license: string) => `market:firm:${license}`,
  /** The seller's report pages of an open house (a socket shows a report link's token to join). */
  seller: (openHouseId: number) => `seller:${openHouseId}`,
  /** The sockets of one sign-in (server side only): disconnected when the session is revoked. */
  session: (sessionId: string) => `session:${sessionId}`,
} as const
