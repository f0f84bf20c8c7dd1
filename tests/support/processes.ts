import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'

/** A TCP port nothing listens on now, for a process the test starts. */
/**
 * `pnpm start` from the sources, as package.json's `start` runs it: this Node with the server's V8 flags
 * (its API and worker processes take them from it), start.ts under tsx. Run from the checkout's root.
 */
export const PNPM_START_ARGS: readonly string[] = [
  ...SERVER_NODE_FLAGS,
  '--import',
  'tsx',
  'server/src/bin/start.ts',
]

export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface StartedProcess {
  child: ChildProcess
  /** Polls until `check` holds; fails with the process's output if it exits or takes too long (45 s). */
  waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs?: number): Promise<void>
  output(): string
}

/** Starts a long-running process, its output kept for a failure's message; `stop` ends it. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): StartedProcess {
  const child = spawn(command, args, { ...options, stdio: 'pipe' })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  async function waitUntil(
    what: string,
    check: () => Promise<boolean> | boolean,
    timeoutMs = 45_000,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!(await check())) {
      if (child.exitCode !== null)
        throw new Error(`${name} exited (${child.exitCode}) before ${what}:\n${output}`)
      if (Date.now() > deadline)
        throw new Error(`${name}: no ${what} within ${timeoutMs / 1000} s:\n${output}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  return { child, waitUntil, output: () => output }
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

/** The children of `parent` whose command line names `entry` (e.g. `bin/worker.ts`). */
export function childProcesses(parent: number, entry: string): number[] {
  let out = ''
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' })
  } catch {
    // ps exits 1 when the process has no children (one between a process and its replacement).
  }
  return out.split('\n').flatMap((line) => {
    const [pid, ...args] = line.trim().split(/\s+/)
    return pid && args.join(' ').includes(entry) ? [Number(pid)] : []
  })
}

/** The nice value of each thread of a process (Linux keeps one per thread; /proc/<pid>/task/<tid>/stat). */
export function niceOfThreads(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return Number(fields[16])
  })
}

/**
 * The workers' process runs ahead of the API processes on a busy machine: every thread of the worker at
 * a lower nice value (a higher priority) than every thread of every API process.
 */
export function priorities(worker: number, api: number[]) {
  const workerNice = Math.max(...niceOfThreads(worker))
  const apiNice = api.map((pid) => Math.min(...niceOfThreads(pid)))
  return { workerNice, apiNice, workerAhead: api.length > 0 && apiNice.every((nice) => workerNice < nice) }
}
