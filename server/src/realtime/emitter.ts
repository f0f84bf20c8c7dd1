import { Emitter } from '@socket.io/redis-emitter'
import type { Redis } from 'ioredis'
import { envelope, type Live } from './events.ts'

/** For processes without a socket.io server (workers): publishes through the Redis adapter's channel. */
export function createRedisEmitter(redis: Redis, key: string): Live {
  const emitter = new Emitter(redis, { key })
  return {
    emit(to, type, data, openHouseId) {
      emitter.to(to).emit(type, envelope(type, data, openHouseId))
    },
    rooms: {
      join: (agentRoom, room) => emitter.in(agentRoom).socketsJoin(room),
      leave: (agentRoom, room) => emitter.in(agentRoom).socketsLeave(room),
      disconnect: (room) => emitter.in(room).disconnectSockets(true),
    },
  }
}
