/**
 * Live-update work that says only "look again" (a page's hint to refetch, a push naming no guest): each
 * call with a key asks for one run for that key, `ms` after the first call not yet covered; calls made
 * before that run starts join it, and the run sees the newest call's value. A call made while its key's
 * run is under way starts a window of its own, so every call is followed by a run that starts after it.
 * At hundreds of sign-ins a second on one open house this is one run per key per window, not hundreds.
 * A failed run is reported to `failed`; `stop` drops what has not started (the process is stopping).
 */
export function coalesced<V>(
  ms: number,
  run: (key: string, value: V) => Promise<void> | void,
  failed: (err: unknown, key: string) => void,
) {
  const waiting = new Map<string, { value: V; timer: NodeJS.Timeout }>()
  let stopped = false

  function start(key: string): void {
    const next = waiting.get(key)
    if (!next) return
    waiting.delete(key)
    Promise.resolve()
      .then(() => run(key, next.value))
      .catch((err: unknown) => failed(err, key))
  }

  return {
    /** Asks for a run for `key` with `value` (the newest value of a window wins); nobody waits for it. */
    call(key: string, value: V): void {
      if (stopped) return
      const pending = waiting.get(key)
      if (pending) {
        pending.value = value
        return
      }
      const timer = setTimeout(() => start(key), ms)
      timer.unref()
      waiting.set(key, { value, timer })
    },
    /** How many keys wait for their run (for tests). */
    get waiting(): number {
      return waiting.size
    },
    stop(): void {
      stopped = true
      for (const { timer } of waiting.values()) clearTimeout(timer)
      waiting.clear()
    },
  }
}
