// `pnpm start` on the bench's database (DATABASE_URL, as `pnpm start` runs with it): the real
// server/src/bin/start.ts in a process of its own, with the processes and priorities it arranges itself,
// for the sign-in bench's mail backlog. The bench and the load generator stay outside it, at the
// priority they were started with, as a visitor's browser is.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { freePort } from '@porchlight/tests/support/processes.ts'
import { processTree } from './support.ts'

/** `BENCH_SIGNIN_START=<start.ts of another checkout>`: that checkout's `pnpm start`, for before and after. */
const START_ENTRY =
  process.env.BENCH_SIGNIN_START ?? path.resolve(import.meta.dirname, '../server/src/bin/start.ts')

/** A process's CPU time so far, in µs (utime + stime from /proc); 0 once it is gone. */
export function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return 0
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return 0
  }
}

const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return ''
  }
}

/** The start's process tree: its workers' process (bin/worker.ts or .mjs) and the rest (the API's side). */
function processes(root: number) {
  const pids = processTree(root).map(([pid]) => pid)
  const worker = pids.find((pid) => /bin\/worker\.(ts|mjs)/.test(commandLine(pid)))
  return { worker, api: pids.filter((pid) => pid !== worker) }
}

/** Starts `pnpm start` with `env` (DATABASE_URL among them) and waits until it answers /api/ready. */
export async function startCommand(env: Record<string, string>) {
  const port = await freePort()
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', START_ENTRY], {
    cwd: path.resolve(path.dirname(START_ENTRY), '../../..'),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (const until = Date.now() + 180_000; ; ) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited (${child.exitCode})`)
    if (Date.now() > until) throw new Error('pnpm start: not ready in 180 s')
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready && processes(child.pid as number).worker) break
    await new Promise((r) => setTimeout(r, 250))
  }
  const root = child.pid as number
  return {
    url,
    /** The workers' process now. */
    worker: () => processes(root).worker,
    /** CPU so far of the API's side (every process of the start but the worker's), in µs. */
    apiCpuUs: () => processes(root).api.reduce((sum, pid) => sum + processCpuUs(pid), 0),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
