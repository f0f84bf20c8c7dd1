/**
 * `work`, or a rejection with `message` once `ms` passed without its answer (a check that must not hang
 * on a server that stopped answering). The timer goes with the answer: nothing is left to keep the
 * process up.
 */
export function within<T>(ms: number, work: Promise<T>, message = 'timeout'): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}
