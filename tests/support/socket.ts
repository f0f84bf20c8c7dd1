import http from 'node:http'
import type { ClientToServerEvents, EventEnvelope, EventType, ServerToClientEvents } from '@porchlight/shared'
import { io, type Socket } from 'socket.io-client'

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/**
 * Connects like the web app does; rejects with the server's reason when the handshake is refused. With
 * `from`, from that loopback address (127.0.0.2, …): a visitor of its own to a balancer.
 */
export function connectSocket(
  url: string,
  auth: { token: string } | { openHouseId: number },
  from?: string,
): Promise<TestSocket> {
  const socket: TestSocket = io(url, {
    path: '/socket.io',
    auth,
    transports: ['websocket'],
    reconnection: false,
    // biome-ignore lint/suspicious/noExplicitAny: the client's type says string | boolean; Node takes an http.Agent.
    ...(from ? { agent: new http.Agent({ localAddress: from }) as any } : {}),
  })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', (err) => {
      socket.close()
      reject(err)
    })
  })
}

/**
 * Connects as an integrator's program does: the official client with its default options (long-polling
 * first, then the upgrade to a WebSocket), every request from the loopback address `from` (127.0.0.2,
 * 127.0.0.3, …, so each socket is a visitor of its own to a balancer); with `reconnection`, it reconnects
 * as the client does by default. Resolves once connected and upgraded; rejects with the server's reason,
 * or when either does not happen within 10 s.
 */
export function connectWithDefaults(
  url: string,
  auth: { token: string } | { openHouseId: number },
  from: string,
  options: { reconnection?: boolean } = {},
): Promise<TestSocket> {
  const socket: TestSocket = io(url, {
    auth,
    reconnection: options.reconnection ?? false,
    // biome-ignore lint/suspicious/noExplicitAny: the client's type says string | boolean; Node takes an http.Agent.
    agent: new http.Agent({ keepAlive: true, localAddress: from }) as any,
  })
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer)
      reject(err)
      socket.removeAllListeners('disconnect')
      socket.close()
    }
    const timer = setTimeout(() => fail(new Error(`${from}: not connected and upgraded within 10 s`)), 10_000)
    socket.once('connect_error', fail)
    socket.once('disconnect', (reason) => fail(new Error(`${from}: disconnected (${reason})`)))
    const upgraded = () => {
      if (!socket.connected || socket.io.engine.transport.name !== 'websocket') return
      clearTimeout(timer)
      socket.off('connect_error', fail)
      socket.removeAllListeners('disconnect')
      resolve(socket)
    }
    socket.once('connect', () => {
      if (socket.io.engine.transport.name === 'websocket') upgraded()
      else socket.io.engine.once('upgrade', upgraded)
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
