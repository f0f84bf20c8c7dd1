/** `source`'s values of `keys` only, as a new object: a row's named columns, a body's named fields. */
export function pick<T extends object, const K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, source[key]])) as Pick<T, K>
}
