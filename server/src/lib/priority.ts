// A process that gives way to others on a busy machine (decision 062): under `pnpm start` on PostgreSQL
// the API processes run at a lower scheduling priority than the worker process, so that when the cores
// are saturated a guest's thank-you goes out while the guest is still at the door, and a sign-in waits
// a few milliseconds longer instead.
import fs from 'node:fs'
import os from 'node:os'

/** The nicest value there is (the lowest priority). */
const NICEST = 19

/** This process's threads: Linux keeps a nice value per thread (/proc/self/task); elsewhere, the process. */
function threads(): number[] {
  try {
    return fs.readdirSync('/proc/self/task').map(Number)
  } catch {
    return [process.pid]
  }
}

/**
 * Lowers this process's scheduling priority by `by` (a higher nice value), every thread of it: the
 * threads Node started already (V8's, libuv's) are lowered here, the ones started later take the value
 * of the thread that starts them. One-way for an unprivileged process: it can never raise it again, and
 * neither can the processes it starts, which take it on; so only a process that starts none that must
 * keep precedence calls this.
 */
export function lowerPriority(by: number): void {
  const target = Math.min(NICEST, os.getPriority() + by)
  for (const thread of threads()) {
    try {
      if (os.getPriority(thread) < target) os.setPriority(thread, target)
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
