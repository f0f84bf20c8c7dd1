import type { EventData, EventEnvelope } from '@porchlight/shared'
import { io, type Socket } from 'socket.io-client'

type AttendeeAdded = EventData['attendee.added']

interface PublicBoardHandlers {
  onAttendee: (attendee: AttendeeAdded) => void
  /** Connected, the first time or again: events sent before were not heard, so reload the list. */
  onConnected: () => void
}

/**
 * The guest page's socket options: WebSocket only, as the agent app's socket (web/src/api/socket.ts),
 * and reconnection sooner than socket.io-client's defaults. Those (1 s doubling to 5 s, ±50 %) wait
 * 0.5–1.5 s, then 1–3 s after a first attempt that failed, so a page whose first try met a replica
 * going away in a deploy was back only after 5 s (decision 052). From 250 ms doubling to 2 s, the
 * third attempt starts by 2.6 s at the latest; the ±50 % spreads 200 pages' handshakes over the
 * replica that is left.
 */
export const GUEST_SOCKET_OPTIONS = {
  path: '/socket.io',
  transports: ['websocket'],
  reconnectionDelay: 250,
  reconnectionDelayMax: 2000,
  randomizationFactor: 0.5,
} as const

/**
 * How long to wait before asking again after the server refused the handshake (the open house is not
 * on show yet, or the server could not answer): socket.io-client does not retry a refusal by itself.
 */
const REFUSED_RETRY_MS = [2_000, 3_000, 5_000, 10_000, 15_000]

/**
 * A guest socket on the open house's public room (auth `{openHouseId}`, API.md "Sockets"), with
 * socket.io-client's heartbeat: a connection that dies without a word (a phone changing networks, a
 * NAT timeout) is noticed when the server's ping is missed (pingInterval + pingTimeout) and replaced.
 * A refused handshake is asked again with a backoff, and at once when the phone is back online or the
 * page is looked at again. Returns the socket and its stop function.
 */
function guestSocket(openHouseId: number): { socket: Socket; stop: () => void } {
  const socket = io({
    ...GUEST_SOCKET_OPTIONS,
    transports: [...GUEST_SOCKET_OPTIONS.transports],
    auth: { openHouseId },
  })
  let refusals = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const again = () => {
    clearTimeout(timer)
    timer = undefined
    if (!stopped && !socket.connected && !socket.active) socket.connect()
  }
  socket.on('connect', () => {
    refusals = 0
  })
  socket.on('connect_error', () => {
    // `active`: the connection failed and socket.io retries by itself. Otherwise the server refused.
    if (socket.active || stopped) return
    clearTimeout(timer)
    timer = setTimeout(again, REFUSED_RETRY_MS[Math.min(refusals++, REFUSED_RETRY_MS.length - 1)])
  })
  // The phone unlocked: a refused handshake is asked again now rather than after the backoff (a
  // connection that is up is checked by its next ping; a dropped one is being retried already).
  const wake = () => {
    if (document.visibilityState !== 'hidden' && !stopped && !socket.active) again()
  }
  const online = () => {
    // A network change leaves the old connection for dead (a new address): replace it at once.
    if (socket.connected) socket.io.engine.close()
    else wake()
  }
  window.addEventListener('online', online)
  document.addEventListener('visibilitychange', wake)

  return {
    socket,
    stop() {
      stopped = true
      clearTimeout(timer)
      window.removeEventListener('online', online)
      document.removeEventListener('visibilitychange', wake)
      socket.disconnect()
    },
  }
}

/**
 * Joins the open house's public room and reports each 'attendee.added'; on every connection (the
 * first one too: the page's list was loaded before it joined) the page reloads its list, since events
 * sent before are gone. Returns the stop function.
 */
export function watchPublicAttendees(openHouseId: number, handlers: PublicBoardHandlers): () => void {
  const { socket, stop } = guestSocket(openHouseId)
  socket.on('connect', handlers.onConnected)
  socket.on('attendee.added', (envelope: Partial<EventEnvelope<'attendee.added'>>) => {
    if (envelope?.data?.openHouseId === openHouseId) handlers.onAttendee(envelope.data)
  })
  return stop
}

/**
 * For a page opened before its open house is on show: asks the public room until the server lets the
 * page in (the open house was published or got a host), then calls `onShow` once, so the page loads
 * it without a reload. Returns the stop function.
 */
export function waitUntilOnShow(openHouseId: number, onShow: () => void): () => void {
  const { socket, stop } = guestSocket(openHouseId)
  socket.once('connect', () => {
    stop()
    onShow()
  })
  return stop
}
