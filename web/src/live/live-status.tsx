import { useEffect, useState, useSyncExternalStore } from 'react'
import { useLiveConnection } from './bridge.ts'
import type { LiveStatus } from './store.ts'
import './live.css'
import { clockTime } from '../ui/format.ts'

/**
 * How long socket.io may retry before the screen stops saying "Reconnecting…" and says it is offline,
 * with how old what it shows is.
 */
const RECONNECT_GRACE_MS = 10_000

type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline'

interface LiveFacts {
  status: LiveStatus
  /** A page's open house room is not joined yet. */
  joining: boolean
  /** The browser itself says it has no network. */
  browserOffline: boolean
  /** How long the socket has been lost, in ms; null while connected. */
  downFor: number | null
}

function liveState({ status, joining, browserOffline, downFor }: LiveFacts): LiveState {
  if (status === 'connected') return joining ? 'connecting' : 'live'
  if (status === 'connecting') return 'connecting'
  if (status === 'offline' || browserOffline) return 'offline'
  return downFor !== null && downFor >= RECONNECT_GRACE_MS ? 'offline' : 'reconnecting'
}

function liveText(state: LiveState, lastDataAt: number | null): string {
  if (state === 'live') return 'Live'
  if (state === 'connecting') return 'Connecting…'
  if (state === 'reconnecting') return 'Reconnecting…'
  return lastDataAt === null ? 'Offline' : `Offline — showing what we had at ${clockTime(lastDataAt)}`
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/** Re-renders once `at` (ms since the epoch) has passed, so a state that depends on time moves on. */
function useRenderAt(at: number | null) {
  const [, setTick] = useState(0)
  useEffect(() => {
    if (at === null) return
    const wait = at - Date.now()
    if (wait < 0) return
    const timer = setTimeout(() => setTick((n) => n + 1), wait + 50)
    return () => clearTimeout(timer)
  }, [at])
}

/**
 * Whether what the page shows is live, from the agent socket's real state: "Live", "Reconnecting…"
 * while socket.io retries, then "Offline — showing what we had at 10:42" (when data last arrived).
 * The one indicator of every signed-in page, rendered by the layout; a polite status, so a change is
 * read out too.
 */
export function LiveStatusIndicator() {
  const { status, downSince, lastDataAt, joining } = useLiveConnection()
  const browserOffline = !useSyncExternalStore(subscribeOnline, () => navigator.onLine)
  useRenderAt(downSince === null ? null : downSince + RECONNECT_GRACE_MS)
  const downFor = downSince === null ? null : Date.now() - downSince
  const state = liveState({ status, joining, browserOffline, downFor })
  return (
    <div className="live-status" data-state={state}>
      <p role="status" className="live-status__text" data-testid="live-status">
        <span className="live-status__dot" aria-hidden="true" />
        {liveText(state, lastDataAt)}
      </p>
    </div>
  )
}
