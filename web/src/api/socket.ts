import type { ClientToServerEvents, ServerToClientEvents } from '@porchlight/shared'
import type { Socket } from 'socket.io-client'
import { readToken, subscribeSession } from './storage.ts'

export type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>

let connection: Promise<AgentSocket> | null = null
let unsubscribe: (() => void) | null = null

/**
 * The signed-in agent's socket (API.md "Sockets"), created on first use. socket.io-client is loaded
 * lazily so signed-out pages never download it. What its events do, and what happens on a reconnect,
 * is the live bridge's (live/bridge.ts), its only user.
 */
export function agentSocket(): Promise<AgentSocket> {
  if (connection) return connection
  connection = import('socket.io-client').then(
    ({ io }): AgentSocket =>
      io({
        path: '/socket.io',
        // A function, so every reconnect sends the current token rather than the first one.
        auth: (send) => send({ token: readToken() }),
        // WebSocket only: polling would need sticky sessions across the API replicas.
        transports: ['websocket'],
      }),
  )
  // Signing out (here or in another tab) closes the socket.
  unsubscribe = subscribeSession(() => {
    if (!readToken()) closeAgentSocket()
  })
  return connection
}

export function closeAgentSocket() {
  const closing = connection
  connection = null
  unsubscribe?.()
  unsubscribe = null
  void closing?.then((socket) => socket.disconnect())
}
