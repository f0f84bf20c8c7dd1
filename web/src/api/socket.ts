import type { QueryClient } from '@tanstack/react-query'
import type { Socket } from 'socket.io-client'
import { readToken, subscribeSession } from './storage.ts'

let connection: Promise<Socket> | null = null
let unsubscribe: (() => void) | null = null

/**
 * The signed-in agent's socket (API.md "Sockets"), created on first use. socket.io-client is loaded
 * lazily so signed-out pages never download it. After a reconnect every query is invalidated, so an
 * event missed while offline can never leave a stale screen (DESIGN.md "Real time").
 */
export function agentSocket(queryClient: QueryClient): Promise<Socket> {
  if (connection) return connection
  connection = import('socket.io-client').then(({ io }) => {
    const socket = io({
      path: '/socket.io',
      // A function, so every reconnect sends the current token rather than the first one.
      auth: (send) => send({ token: readToken() }),
      // WebSocket only: polling would need sticky sessions across the API replicas.
      transports: ['websocket'],
    })
    socket.io.on('reconnect', () => {
      void queryClient.invalidateQueries()
    })
    // The server lost Redis for a while: events from other processes may have been missed.
    socket.on('sync.required', () => {
      void queryClient.invalidateQueries()
    })
    return socket
  })
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
