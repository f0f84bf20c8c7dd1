import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createPostgresDb } from '@porchlight/server/src/db/database.ts'
import { migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import { migrationsDir } from './global-setup.ts'
import { freePort } from './processes.ts'

const run = promisify(execFile)
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function asPostgres(program: string, args: string[]): [string, string[]] {
  const file = path.join(BIN, program)
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args]
}

async function pg(program: string, ...args: string[]): Promise<string> {
  const [file, argv] = asPostgres(program, args)
  const { stdout } = await run(file, argv, { timeout: 60_000 })
  return stdout
}

/**
 * How a running server stops: 'fast' ends every session with an error and checkpoints (a planned
 * restart, a failover's old primary); 'immediate' drops everything at once, as a crash does, and the
 * next start recovers from the write-ahead log.
 */
export type StopMode = 'fast' | 'immediate'

/**
 * A PostgreSQL server of the test's own (initdb + pg_ctl on a free port, its data in a temporary
 * directory), never the shared one: the test may stop, crash and restart it. It is migrated to the
 * latest schema. `stop()` with no mode ends it for good and removes its data.
 */
export async function startOwnPostgres() {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-own-pg-'))
  const data = path.join(dir, 'data')
  fs.chmodSync(dir, 0o755)
  if (process.getuid?.() === 0) fs.chownSync(dir, ...(await postgresIds()))
  await pg('initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C')
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    // A test's data need not survive the machine losing power, only the server crashing: commits
    // are still written to the log before they are answered (synchronous_commit stays on, or an
    // immediate stop would lose commits the API acknowledged).
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ')
  let running = false

  async function start() {
    await pg('pg_ctl', '-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start')
    running = true
  }

  async function stopServer(mode: StopMode) {
    running = false
    await pg('pg_ctl', '-D', data, '-m', mode, '-w', '-t', '60', 'stop')
  }

  await start()
  // A test run that ends without its afterAll (a failure in setup, an interrupted run) leaves no server.
  const leftBehind = () => {
    if (!running) return
    const [file, argv] = asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    spawnSync(file, argv, { stdio: 'ignore', timeout: 30_000 })
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', leftBehind)
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const handle = createPostgresDb(url, 2)
  try {
    await migrateToLatest(handle.db, migrationsDir)
  } finally {
    await handle.close()
  }

  return {
    url,
    port,
    /** Stopped in `mode`, then started again at once (pg_ctl's restart, with the stop mode named). */
    async restart(mode: StopMode) {
      await stopServer(mode)
      await start()
    },
    /** Stopped in `mode` and left down until `start()`. */
    stop: stopServer,
    start,
    /** The server's log, for a failure's message. */
    log: () => fs.readFileSync(path.join(dir, 'log'), 'utf8'),
    /** Stops the server (immediately: its data goes too) and removes its directory. */
    async remove() {
      process.off('exit', leftBehind)
      if (running) await stopServer('immediate').catch(() => {})
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

export type OwnPostgres = Awaited<ReturnType<typeof startOwnPostgres>>

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['postgres'])
  const uid = Number(/uid=(\d+)/.exec(stdout)?.[1])
  const gid = Number(/gid=(\d+)/.exec(stdout)?.[1])
  return [uid, gid]
}
