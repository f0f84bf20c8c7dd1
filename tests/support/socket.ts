import type { ClientToServerEvents, EventEnvelope, EventType, ServerToClientEvents } from '@porchlight/shared'
import { io, type Socket } from 'socket.io-client'

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/** Connects like the web app does; rejects with the server's reason when the handshake is refused. */
export function connectSocket(
  url: string,
  auth: { token: string } | { openHouseId: number },
): Promise<TestSocket> {
  const socket: TestSocket = io(url, {
    path: '/socket.io',
    auth,
    transports: ['websocket'],
    reconnection: false,
  })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', (err) => {
      socket.close()
      reject(err)
    })
  })
}

/** Collects every event of `type` that reaches the socket. */
export function collect<T extends EventType>(socket: TestSocket, type: T): EventEnvelope<T>[] {
  const seen: EventEnvelope<T>[] = []
  // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed `on` cannot follow a generic event name.
  ;(socket as any).on(type, (e: EventEnvelope<T>) => seen.push(e))
  return seen
}

export function nextEvent<T extends EventType>(
  socket: TestSocket,
  type: T,
  timeoutMs = 5000,
): Promise<EventEnvelope<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs)
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    ;(socket as any).once(type, (e: EventEnvelope<T>) => {
      clearTimeout(timer)
      resolve(e)
    })
  })
}
