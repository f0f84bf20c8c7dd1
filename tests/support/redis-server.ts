import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import { freePort } from './processes.ts'

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy()
      resolve(true)
    })
    s.on('error', () => resolve(false))
  })

/**
 * A `redis-server` of the test's own on a free port, never the shared one, keeping nothing on disk: a
 * test can stop it (Redis away) and start it again empty (Redis restarted and lost its data).
 */
export async function startOwnRedis() {
  const port = await freePort()
  let child: ChildProcess | undefined

  async function start() {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    for (let i = 0; i < 50; i++) {
      if (await answers(port)) return
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('redis-server did not start')
  }

  async function stop() {
    const running = child
    child = undefined
    running?.kill('SIGKILL')
    if (running && running.exitCode === null) await new Promise((r) => running.once('exit', r))
  }

  /** Redis hung (SIGSTOP): connections stay open and commands go unanswered until `resume`. */
  const pause = () => void child?.kill('SIGSTOP')
  const resume = () => void child?.kill('SIGCONT')

  await start()
  return { url: `redis://127.0.0.1:${port}`, start, stop, pause, resume }
}

export type OwnRedis = Awaited<ReturnType<typeof startOwnRedis>>
