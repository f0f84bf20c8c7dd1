import type http from 'node:http'
import { createAdapter } from '@socket.io/redis-adapter'
import { Redis } from 'ioredis'
import { Server } from 'socket.io'
import { REDIS_URL } from './support.ts'

/**
 * The baseline's socket.io: a bare server on `server` with the same Redis adapter as the app (servers
 * sharing `key` hear each other), where each socket joins the rooms `roomsOf` names from its handshake.
 */
export function bareSocketServer(
  server: http.Server,
  key: string,
  roomsOf: (auth: Record<string, unknown>) => string[],
) {
  const pub = new Redis(REDIS_URL)
  const sub = new Redis(REDIS_URL)
  const io = new Server(server, {
    path: '/socket.io',
    transports: ['websocket'],
    adapter: createAdapter(pub, sub, { key }),
  })
  io.use(async (socket, next) => {
    await socket.join(roomsOf(socket.handshake.auth))
    next()
  })
  return {
    io,
    server,
    async close() {
      await new Promise<void>((resolve) => io.close(() => resolve()))
      pub.disconnect()
      sub.disconnect()
    },
  }
}
