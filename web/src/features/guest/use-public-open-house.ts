import type { PublicOpenHouse } from '@porchlight/shared'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/request.ts'
import { getPublicOpenHouse } from './guest-api.ts'

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'error'; error: ApiError }

// One fetch per open house for the whole visit: every guest page shows its address at the top.
const cache = new Map<number, Promise<PublicOpenHouse>>()

function load(id: number): Promise<PublicOpenHouse> {
  let promise = cache.get(id)
  if (!promise) {
    promise = getPublicOpenHouse(id)
    // A failed load is tried again by the next page (or the Retry button), not remembered.
    promise.catch(() => cache.delete(id))
    cache.set(id, promise)
  }
  return promise
}

const asApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError(0, 'NETWORK', String(error))

/** The open house in public mode (SPEC §2), or null without an id. `retry` loads it again. */
export function usePublicOpenHouse(id: number | null): [Loaded<PublicOpenHouse> | null, () => void] {
  const [result, setResult] = useState<Loaded<PublicOpenHouse> | null>(id ? { state: 'loading' } : null)
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger
  useEffect(() => {
    if (!id) {
      setResult(null)
      return
    }
    let current = true
    setResult((previous) =>
      previous?.state === 'ready' && previous.data.id === id ? previous : { state: 'loading' },
    )
    load(id).then(
      (data) => current && setResult({ state: 'ready', data }),
      (error: unknown) => current && setResult({ state: 'error', error: asApiError(error) }),
    )
    return () => {
      current = false
    }
  }, [id, attempt])

  return [result, () => setAttempt((n) => n + 1)]
}
