import type { Server as HttpServer } from 'node:http'
import { type ClientToServerEvents, rooms, type ServerToClientEvents } from '@porchlight/shared'
import { createAdapter } from '@socket.io/redis-adapter'
import type { Redis } from 'ioredis'
import { Server } from 'socket.io'
import { z } from 'zod'
import type { AgentRepo } from '../modules/agents/repo.ts'
import type { SessionService } from '../modules/auth/sessions.ts'
import type { OpenHouseRepo } from '../modules/open-houses/repo.ts'
import { type EventSink, envelope } from './events.ts'

interface SocketData {
  userId?: number
  agentId?: number
  guestOpenHouseId?: number
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>

export interface RealtimeDeps {
  sessions: SessionService
  agents: AgentRepo
  openHouses: OpenHouseRepo
  redis: { pub: Redis; sub: Redis; key: string }
  corsOrigin: string
}

const Handshake = z.union([
  z.object({ token: z.string().min(1) }),
  z.object({ openHouseId: z.coerce.number().int().positive() }),
])
const WatchPayload = z.object({ openHouseId: z.coerce.number().int().positive() })

export function createRealtime(httpServer: HttpServer, deps: RealtimeDeps): EventSink & { io: IoServer } {
  const io: IoServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: deps.corsOrigin, credentials: false },
    adapter: createAdapter(deps.redis.pub, deps.redis.sub, { key: deps.redis.key }),
  })

  // Handshake: an agent proves itself with the same bearer token as HTTP; a guest names its open house.
  io.use(async (socket, next) => {
    const auth = Handshake.safeParse(socket.handshake.auth)
    if (!auth.success) return next(new Error('SESSION_EXPIRED'))
    try {
      if ('token' in auth.data) {
        const session = await deps.sessions.validate(auth.data.token)
        if (!session) return next(new Error('SESSION_EXPIRED'))
        socket.data.userId = session.userId
        const agent = await deps.agents.findByUserId(session.userId)
        if (agent) {
          socket.data.agentId = agent.id
          const teamIds = await deps.agents.teamIds(agent.id)
          await socket.join([
            rooms.agent(agent.id),
            rooms.marketAll,
            ...(agent.reAgentBrokerFirmLicense ? [rooms.marketFirm(agent.reAgentBrokerFirmLicense)] : []),
            ...teamIds.map(rooms.team),
          ])
        }
        return next()
      }
      const openHouse = await deps.openHouses.participants(auth.data.openHouseId)
      if (!openHouse) return next(new Error('NOT_FOUND'))
      socket.data.guestOpenHouseId = openHouse.id
      await socket.join(rooms.openHousePublic(openHouse.id))
      return next()
    } catch {
      return next(new Error('UNAVAILABLE'))
    }
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

  io.on('connection', (socket) => {
    socket.on('watch', async (payload, ack) => {
      if (typeof ack !== 'function') return
      const parsed = WatchPayload.safeParse(payload)
      if (!parsed.success) return ack({ ok: false, error: { code: 'BAD_REQUEST' } })
      const agentId = socket.data.agentId
      const openHouse = agentId ? await deps.openHouses.participants(parsed.data.openHouseId) : undefined
      if (!agentId || !openHouse) return ack({ ok: false, error: { code: 'FORBIDDEN' } })
      if (openHouse.listingReAgentId !== agentId && openHouse.hostingReAgentId !== agentId) {
        return ack({ ok: false, error: { code: 'FORBIDDEN' } })
      }
      await socket.join(rooms.openHouse(openHouse.id))
      ack({ ok: true })
    })
    socket.on('unwatch', (payload) => {
      const parsed = WatchPayload.safeParse(payload)
      if (parsed.success) void socket.leave(rooms.openHouse(parsed.data.openHouseId))
    })
  })

  return {
    io,
    emit(to, type, data, openHouseId) {
      // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed emit cannot follow a generic event name.
      ;(io.to(to) as any).emit(type, envelope(type, data, openHouseId))
    },
  }
}
