/**
 * Sets `key` as the newest entry of `map` and drops the oldest beyond `max`: a Map keeps its keys in the
 * order they were set, so the first is the one set longest ago. A per-process memory of the last few
 * thousand of something (sessions, claims), bounded without a library.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  if (map.size <= max) return
  const oldest = map.keys().next()
  if (!oldest.done) map.delete(oldest.value)
}
