import type { EventEnvelope, EventType } from '@porchlight/shared'
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import { type AgentSocket, agentSocket } from '../api/socket.ts'
import { createInvalidationBatcher } from './coalesce.ts'
import {
  createLiveStore,
  type LiveNotice,
  type LiveStatus,
  type LiveToast,
  type WatchState,
} from './store.ts'
import type { LiveContext, LiveRule, LiveTable } from './types.ts'

// The one place the agent app listens to its socket: the event table (app/live-events.ts,
// handed in by the layout) applied to the
// query cache, the open house rooms pages watch, the connection state, and the refetch after a
// reconnect (DESIGN.md "Real time": a missed event never leaves a stale screen).

const store = createLiveStore()

/** How long a toast of a live change stays on screen. */
const TOAST_MS = 6_000

/** The pauses before asking again after the server could not answer the handshake. */
const REFUSED_RETRY_MS = [1_000, 2_000, 5_000, 10_000]

/** Open house rooms the pages on screen watch, with how many pages watch each. */
const watchers = new Map<number, number>()

/** The running bridge's room protocol; null until its socket is there. */
let rooms: { watch(openHouseId: number): void; unwatch(openHouseId: number): void } | null = null

/** What the layout hands the bridge: the event table, and what a watched room's page shows. */
export interface LiveWiring {
  events: LiveTable
  watchedRoomKeys: (openHouseId: number) => QueryKey[]
}

function startBridge(queryClient: QueryClient, agentId: number, wiring: LiveWiring): () => void {
  const { events: liveEvents, watchedRoomKeys } = wiring
  const isListened = (type: string): type is EventType => Object.hasOwn(liveEvents, type)
  let stopped = false
  let socket: AgentSocket | null = null
  let connectedBefore = false
  const batcher = createInvalidationBatcher(queryClient)
  const timers = new Set<ReturnType<typeof setTimeout>>()

  const live: Omit<LiveContext, 'refetched'> = {
    queryClient,
    agentId,
    invalidate: (...keys) => batcher.invalidate(keys),
    later(ms, run) {
      if (stopped) return
      const timer = setTimeout(() => {
        timers.delete(timer)
        run()
      }, ms)
      timers.add(timer)
    },
    announce(text) {
      if (stopped) return
      const id = store.announce(text)
      live.later(TOAST_MS, () => store.dismiss(id))
    },
    notice: (id) => store.get().notices.get(id),
    setNotice(id, notice) {
      if (!stopped) store.setNotice(id, notice)
    },
    markFresh(id, signedInAt, on) {
      if (!stopped) store.markFresh(id, signedInAt, on)
    },
    watching: (id) => watchers.has(id),
  }

  const onEvent = (type: string, event: EventEnvelope) => {
    if (stopped || !isListened(type)) return
    const rule = liveEvents[type] as LiveRule<EventType> | undefined
    const refetched = batcher.invalidate(rule?.invalidates?.(event, agentId) ?? [])
    rule?.update?.(event, { ...live, refetched })
  }

  const watch = (openHouseId: number) => {
    // While disconnected nothing is sent: socket.io would buffer it, and 'connect' joins anyway.
    if (!socket?.connected) return
    socket.emit('watch', { openHouseId }, (ack) => {
      if (stopped || !watchers.has(openHouseId)) return
      store.setWatch(openHouseId, ack.ok ? 'yes' : 'no')
      // What happened between the page's load and joining the room is fetched once now.
      if (ack.ok) void batcher.invalidate(watchedRoomKeys(openHouseId))
    })
  }
  const unwatch = (openHouseId: number) => {
    if (socket?.connected) socket.emit('unwatch', { openHouseId })
  }

  const onConnect = () => {
    refusals = 0
    store.setStatus('connected')
    // Events sent while the socket was away are gone: refetch what is on screen.
    if (connectedBefore) void queryClient.invalidateQueries({ refetchType: 'active' })
    connectedBefore = true
    // Rooms do not survive a reconnect: join the watched ones again.
    for (const openHouseId of watchers.keys()) watch(openHouseId)
  }
  // `active`: socket.io retries by itself (a dropped connection), rather than having given up
  // (closed by sign-out, or the server refused or ended the session).
  const onDisconnect = () => {
    store.setStatus(socket?.active ? 'reconnecting' : 'offline')
    for (const openHouseId of watchers.keys()) store.setWatch(openHouseId, 'pending')
  }
  // A refused handshake is not retried by socket.io. The server could not answer (its database away,
  // 'UNAVAILABLE'): ask again after a pause, as for a lost connection. A refused session stays offline.
  let refusals = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  const onConnectError = (err: Error) => {
    if (socket?.active || stopped) return store.setStatus('reconnecting')
    if (err.message !== 'UNAVAILABLE') return store.setStatus('offline')
    store.setStatus('reconnecting')
    clearTimeout(retry)
    retry = setTimeout(
      () => {
        if (!stopped && socket && !socket.active) socket.connect()
      },
      REFUSED_RETRY_MS[Math.min(refusals++, REFUSED_RETRY_MS.length - 1)],
    )
  }
  // Back online after the browser said it had no network: the connection from before is most likely
  // dead without a word (a new network, a new address). Replace it now rather than wait for the
  // server's next ping to be missed.
  const onOnline = () => {
    if (socket?.connected) socket.io.engine.close()
  }
  window.addEventListener('online', onOnline)

  // "Showing what we had at 10:42": the last time any query got its data.
  const queryCache = queryClient.getQueryCache()
  for (const query of queryCache.getAll()) store.setDataAt(query.state.dataUpdatedAt)
  const stopWatchingData = queryCache.subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') {
      store.setDataAt(event.query.state.dataUpdatedAt)
    }
  })

  store.setStatus('connecting')
  void agentSocket().then((connected) => {
    if (stopped) return
    socket = connected
    socket.onAny(onEvent)
    socket.on('connect', onConnect)
    socket.on('disconnect', onDisconnect)
    socket.on('connect_error', onConnectError)
    rooms = { watch, unwatch }
    // Already live (the layout mounted again): events may have passed while nobody listened.
    if (socket.connected) {
      connectedBefore = true
      onConnect()
    } else if (!socket.active) store.setStatus('offline')
  })

  return () => {
    stopped = true
    stopWatchingData()
    batcher.stop()
    for (const timer of timers) clearTimeout(timer)
    clearTimeout(retry)
    window.removeEventListener('online', onOnline)
    socket?.offAny(onEvent)
    socket?.off('connect', onConnect)
    socket?.off('disconnect', onDisconnect)
    socket?.off('connect_error', onConnectError)
    rooms = null
    store.reset()
  }
}

/** Mounted once, by the signed-in layout: keeps every screen's queries in step with the socket. */
export function useLiveBridge(agentId: number | undefined, wiring: LiveWiring) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (agentId) return startBridge(queryClient, agentId, wiring)
  }, [agentId, queryClient, wiring])
}

/**
 * Joins the open house's room while the calling page shows (again after every reconnect) and says
 * whether the server let the agent in; the room brings the attendee and feedback events.
 */
export function useWatchOpenHouse(openHouseId: number): WatchState {
  useEffect(() => {
    const count = watchers.get(openHouseId) ?? 0
    watchers.set(openHouseId, count + 1)
    if (count === 0) {
      store.setWatch(openHouseId, 'pending')
      rooms?.watch(openHouseId)
    }
    return () => {
      const left = (watchers.get(openHouseId) ?? 1) - 1
      if (left > 0) {
        watchers.set(openHouseId, left)
        return
      }
      watchers.delete(openHouseId)
      store.setWatch(openHouseId, null)
      rooms?.unwatch(openHouseId)
    }
  }, [openHouseId])
  return useSyncExternalStore(store.subscribe, () => store.get().watches.get(openHouseId) ?? 'pending')
}

function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(store.subscribe, () => store.get().status)
}

/** The socket's state with what the live indicator says about it (live/live-status.tsx). */
export function useLiveConnection() {
  const status = useLiveStatus()
  const downSince = useSyncExternalStore(store.subscribe, () => store.get().downSince)
  const lastDataAt = useSyncExternalStore(store.subscribe, () => store.get().lastDataAt)
  // A room a page asked for and has not been let into yet: that page is not live yet.
  const joining = useSyncExternalStore(store.subscribe, () =>
    [...store.get().watches.values()].includes('pending'),
  )
  return { status, downSince, lastDataAt, joining }
}

export function useLiveToasts(): readonly LiveToast[] {
  return useSyncExternalStore(store.subscribe, () => store.get().toasts)
}

/** Takes a toast away before its time (its close button). */
export function dismissLiveToast(id: number) {
  store.dismiss(id)
}

export function useLiveNotice(openHouseId: number): LiveNotice | undefined {
  return useSyncExternalStore(store.subscribe, () => store.get().notices.get(openHouseId))
}

const NONE: ReadonlySet<string> = new Set()

/** The signedInAt of the board's attendee rows that arrived live a moment ago. */
export function useFreshAttendees(openHouseId: number): ReadonlySet<string> {
  return useSyncExternalStore(store.subscribe, () => store.get().fresh.get(openHouseId) ?? NONE)
}
