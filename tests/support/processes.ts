import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'

/** A TCP port nothing listens on now, for a process the test starts. */
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
