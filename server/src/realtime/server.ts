import type { Server as HttpServer } from 'node:http'
import type { Writable } from 'node:stream'
import { type ClientToServerEvents, rooms, type ServerToClientEvents } from '@porchlight/shared'
import { createAdapter } from '@socket.io/redis-adapter'
import type { Redis } from 'ioredis'
import { Server } from 'socket.io'
import { z } from 'zod'
import { backgroundFailures } from '../failures.ts'
import { envelope, type Live } from './events.ts'

interface SocketData {
  userId?: number
  agentId?: number
  guestOpenHouseId?: number
  sellerOpenHouseId?: number
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>

/**
 * The socket layer asks the one policy through these (the composition root wires them); it reads no
 * table itself.
 */
export interface SocketAuthority {
  /** A session token's agent and the rooms the policy lets it join; null for an unknown session. */
  agent(token: string): Promise<{ userId: number; agentId?: number; rooms: string[] } | null>
  /** Whether a guest page may listen to this open house's public room (it is on show). */
  guest(openHouseId: number): Promise<boolean>
  /** Whether the agent may watch the open house's private room (listing, scheduler, host). */
  watch(agentId: number, openHouseId: number): Promise<boolean>
  /** The open house a seller report link's token opens (working: not revoked, not expired), or null. */
  seller(token: string): Promise<number | null>
}

export interface RealtimeDeps {
  redis: { pub: Redis; sub: Redis; key: string }
  corsOrigin: string
}

export interface Realtime extends Live {
  io: IoServer
  /** Starts admitting sockets, asking `authority` (built with the services, after this server). */
  admit(authority: SocketAuthority): void
}

const Handshake = z.union([
  z.object({ token: z.string().min(1) }),
  z.object({ openHouseId: z.coerce.number().int().positive() }),
  z.object({ sellerToken: z.string().min(20).max(100) }),
])
const WatchPayload = z.object({ openHouseId: z.coerce.number().int().positive() })

export function createRealtime(httpServer: HttpServer, deps: RealtimeDeps): Realtime {
  const io: IoServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: deps.corsOrigin, credentials: false },
    adapter: createAdapter(deps.redis.pub, deps.redis.sub, { key: deps.redis.key }),
  })

  // Pub/sub keeps nothing: events other processes sent while this one was cut off from Redis are gone.
  // When the subscription comes back, tell this process's clients to refetch.
  let lost = false
  deps.redis.sub.on('end', () => {
    lost = true
  })
  deps.redis.sub.on('close', () => {
    lost = true
  })
  deps.redis.sub.on('ready', () => {
    if (!lost) return
    lost = false
    // biome-ignore lint/suspicious/noExplicitAny: the typed emit cannot follow a generic event name.
    ;(io.local as any).emit('sync.required', envelope('sync.required', {}))
  })

  function admit(authority: SocketAuthority): void {
    // Handshake: an agent proves itself with the same bearer token as HTTP; a guest names its open house.
    io.use(async (socket, next) => {
      const auth = Handshake.safeParse(socket.handshake.auth)
      if (!auth.success) return next(new Error('SESSION_EXPIRED'))
      try {
        if ('token' in auth.data) {
          const agent = await authority.agent(auth.data.token)
          if (!agent) return next(new Error('SESSION_EXPIRED'))
          socket.data.userId = agent.userId
          socket.data.agentId = agent.agentId
          if (agent.rooms.length) await socket.join(agent.rooms)
          return next()
        }
        if ('sellerToken' in auth.data) {
          // The seller's report page: its room hears only that the report changed, never a name.
          const openHouseId = await authority.seller(auth.data.sellerToken)
          if (openHouseId === null) return next(new Error('NOT_FOUND'))
          socket.data.sellerOpenHouseId = openHouseId
          await socket.join(rooms.seller(openHouseId))
          return next()
        }
        if (!(await authority.guest(auth.data.openHouseId))) return next(new Error('NOT_FOUND'))
        socket.data.guestOpenHouseId = auth.data.openHouseId
        await socket.join(rooms.openHousePublic(auth.data.openHouseId))
        return next()
      } catch (err) {
        backgroundFailures.report('socket-handshake', err, { socketId: socket.id })
        return next(new Error('UNAVAILABLE'))
      }
    })

    io.on('connection', (socket) => {
      socket.on('watch', async (payload, ack) => {
        if (typeof ack !== 'function') return
        const parsed = WatchPayload.safeParse(payload)
        if (!parsed.success) return ack({ ok: false, error: { code: 'BAD_REQUEST' } })
        const agentId = socket.data.agentId
        try {
          if (!agentId || !(await authority.watch(agentId, parsed.data.openHouseId))) {
            return ack({ ok: false, error: { code: 'FORBIDDEN' } })
          }
          await socket.join(rooms.openHouse(parsed.data.openHouseId))
          ack({ ok: true })
        } catch (err) {
          // A socket handler never throws: the database away answers like a refusal the page can retry.
          backgroundFailures.report('socket-watch', err, { agentId, openHouseId: parsed.data.openHouseId })
          ack({ ok: false, error: { code: 'FORBIDDEN' } })
        }
      })
      socket.on('unwatch', (payload) => {
        const parsed = WatchPayload.safeParse(payload)
        if (parsed.success) void socket.leave(rooms.openHouse(parsed.data.openHouseId))
      })
    })
  }

  // The events emitted in one turn of the event loop (a sign-in's, after its commit) go to Redis in one
  // write: the publishing connection's socket (a new one after a reconnect) is corked until the turn ends.
  let corked: Writable | undefined
  const uncork = () => {
    corked?.uncork()
    corked = undefined
  }

  return {
    io,
    admit,
    emit(to, type, data, openHouseId) {
      if (!corked) {
        // Undefined until ioredis has connected, whatever its type says.
        corked = deps.redis.pub.stream as Writable | undefined
        corked?.cork()
        process.nextTick(uncork)
      }
      // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed emit cannot follow a generic event name.
      ;(io.to(to) as any).emit(type, envelope(type, data, openHouseId))
    },
    rooms: {
      join: (agentRoom, room) => io.in(agentRoom).socketsJoin(room),
      leave: (agentRoom, room) => io.in(agentRoom).socketsLeave(room),
      disconnect: (room) => io.in(room).disconnectSockets(true),
      watching: async (agentId, room) =>
        (await io.in(room).fetchSockets()).some((socket) => socket.data.agentId === agentId),
    },
  }
}
