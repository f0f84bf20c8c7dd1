import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query'

/**
 * How long invalidations gather before they run. A burst of events (a Team Lead's dashboard gets a
 * `stats.changed` per member's change, dozens in a second) then costs one refetch per query key.
 */
const COALESCE_MS = 250

interface InvalidationBatcher {
  /**
   * Marks the queries under `keys` stale and refetches the mounted ones within COALESCE_MS; resolves
   * once they have refetched. The same key asked for again meanwhile is refetched once.
   */
  invalidate(keys: readonly QueryKey[]): Promise<void>
  stop(): void
}

export function createInvalidationBatcher(
  queryClient: QueryClient,
  windowMs = COALESCE_MS,
): InvalidationBatcher {
  const pending = new Map<string, { key: QueryKey; done: Array<() => void> }>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false

  const schedule = () => {
    if (!timer && !stopped && pending.size) timer = setTimeout(flush, windowMs)
  }

  function flush() {
    timer = null
    for (const [hash, entry] of pending) {
      // A refetch under way started before this change: let it finish rather than abort it (the
      // aborted-request storm), then go again in the next window so the answer includes the change.
      if (queryClient.isFetching({ queryKey: entry.key }) > 0) continue
      pending.delete(hash)
      const settle = () => {
        for (const resolve of entry.done) resolve()
      }
      queryClient.invalidateQueries({ queryKey: entry.key, refetchType: 'active' }).then(settle, settle)
    }
    schedule()
  }

  return {
    invalidate(keys) {
      if (stopped || keys.length === 0) return Promise.resolve()
      const all = keys.map(
        (key) =>
          new Promise<void>((resolve) => {
            const hash = hashKey(key)
            const entry = pending.get(hash) ?? { key, done: [] }
            entry.done.push(resolve)
            pending.set(hash, entry)
          }),
      )
      schedule()
      return Promise.all(all).then(() => undefined)
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      pending.clear()
    },
  }
}
