/** What changed live on one open house card or row, shown for a few seconds. */
export type LiveNotice = { kind: 'claimed'; hostingReAgentName: string } | { kind: 'new' }

/**
 * The agent socket as the screen should describe it: `connecting` until its first connection,
 * `reconnecting` while socket.io retries after losing it (or failing to connect), `offline` when
 * nothing listens or it will not retry (signed out, or the server refused the session).
 */
export type LiveStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline'

/** A live change shown for a few seconds as a toast, and read out by the same polite region. */
export interface LiveToast {
  id: number
  text: string
}

/** Whether the server let this agent join an open house's room (`watch`, API.md "Sockets"). */
export type WatchState = 'pending' | 'yes' | 'no'

interface LiveState {
  status: LiveStatus
  /** By open house id. */
  notices: ReadonlyMap<number, LiveNotice>
  /** What changed live, newest last: shown as toasts and read out (LiveAnnouncer). */
  toasts: readonly LiveToast[]
  /** When the app last received data from the server (a query answered), ms since the epoch. */
  lastDataAt: number | null
  /** When the socket was lost, while it is; null when connected. */
  downSince: number | null
  /** By open house id, the signedInAt of the attendee rows to highlight (the event has no prospect id). */
  fresh: ReadonlyMap<number, ReadonlySet<string>>
  /** By open house id, the rooms a page asked to watch. */
  watches: ReadonlyMap<number, WatchState>
}

/** Toasts on screen at once; an older one leaves early when a burst arrives. */
const MAX_TOASTS = 3

const INITIAL: LiveState = {
  status: 'offline',
  notices: new Map(),
  toasts: [],
  lastDataAt: null,
  downSince: null,
  fresh: new Map(),
  watches: new Map(),
}

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V | null): ReadonlyMap<K, V> {
  const next = new Map(map)
  if (value === null) next.delete(key)
  else next.set(key, value)
  return next
}

/**
 * The bridge's record of what changed live, read by components through useSyncExternalStore. Every
 * change replaces the state object, so a selector returns the same value until its part changes.
 */
export function createLiveStore() {
  let state = INITIAL
  let toastCount = 0
  const listeners = new Set<() => void>()
  const set = (next: Partial<LiveState>) => {
    state = { ...state, ...next }
    for (const listener of listeners) listener()
  }

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    setStatus(status: LiveStatus) {
      if (state.status === status) return
      const down = status === 'reconnecting' || status === 'offline'
      set({ status, downSince: down ? (state.downSince ?? Date.now()) : null })
    },
    setDataAt(at: number) {
      if ((state.lastDataAt ?? 0) < at) set({ lastDataAt: at })
    },
    setNotice(openHouseId: number, notice: LiveNotice | null) {
      set({ notices: withEntry(state.notices, openHouseId, notice) })
    },
    /** Shows `text` as a toast (the last MAX_TOASTS stay); answers its id, for dismiss. */
    announce(text: string): number {
      toastCount += 1
      const id = toastCount
      set({ toasts: [...state.toasts, { id, text }].slice(-MAX_TOASTS) })
      return id
    },
    dismiss(id: number) {
      if (state.toasts.some((toast) => toast.id === id)) {
        set({ toasts: state.toasts.filter((toast) => toast.id !== id) })
      }
    },
    markFresh(openHouseId: number, signedInAt: string, on: boolean) {
      const rows = new Set(state.fresh.get(openHouseId))
      if (on) rows.add(signedInAt)
      else rows.delete(signedInAt)
      set({ fresh: withEntry(state.fresh, openHouseId, rows.size ? rows : null) })
    },
    setWatch(openHouseId: number, watch: WatchState | null) {
      if (state.watches.get(openHouseId) !== watch) {
        set({ watches: withEntry(state.watches, openHouseId, watch) })
      }
    },
    /** Forgets what the last agent saw (sign-out); the watched rooms stay, they belong to the pages. */
    reset() {
      set({ ...INITIAL, watches: state.watches })
    },
  }
}
