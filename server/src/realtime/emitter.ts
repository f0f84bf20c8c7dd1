import { Emitter } from '@socket.io/redis-emitter'
import type { Redis } from 'ioredis'
import { type EventSink, envelope } from './events.ts'

/** For processes without a socket.io server (workers): publishes through the Redis adapter's channel. */
export function createRedisEmitter(redis: Redis, key: string): EventSink {
  const emitter = new Emitter(redis, { key })
  return {
    emit(to, type, data, openHouseId) {
      emitter.to(to).emit(type, envelope(type, data, openHouseId))
    },
  }
}
