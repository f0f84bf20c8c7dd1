// `pnpm start`: one process for a laptop — migrations, API, sockets, workers and the built web app,
// on embedded PostgreSQL and a local Redis unless DATABASE_URL / REDIS_URL say otherwise. With
// DATABASE_URL, WEB_CONCURRENCY runs that many API processes on the port (one per core, say).
import { spawn } from 'node:child_process'
import cluster from 'node:cluster'
import fs from 'node:fs'
import path from 'node:path'
import pino from 'pino'
import { buildApp } from '../compose/app.ts'
import { startWorkerRuntime } from '../compose/worker.ts'
import { configOrExit, loadConfig, paths, withLocalSecretsKey } from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { pingRedis } from '../redis.ts'
import { onShutdown } from '../shutdown.ts'

function fail(line: string): never {
  console.error(line)
  process.exit(1)
}

async function ensureRedis(url: string, explicit: boolean): Promise<string> {
  if (await pingRedis(url)) return explicit ? url : `${url} (local)`
  if (explicit) fail(`Redis at ${url} is not answering. Start it, or unset REDIS_URL to use a local one.`)
  const dir = path.join(paths.dataDir, 'redis')
  fs.mkdirSync(dir, { recursive: true })
  const { port } = new URL(url)
  try {
    const child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', port || '6379', '--dir', dir, '--save', '60 1', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject)
      child.once('spawn', () => resolve())
    })
    process.on('exit', () => child.kill())
  } catch {
    fail('Porchlight needs Redis: install redis-server (e.g. apt-get install redis-server) or set REDIS_URL.')
  }
  for (let i = 0; i < 50; i++) {
    if (await pingRedis(url)) return `${url} (started redis-server, data in data/redis)`
    await new Promise((r) => setTimeout(r, 100))
  }
  fail('redis-server was started but does not answer on 127.0.0.1; set REDIS_URL to a running Redis.')
}

// Without SECRETS_KEY, the key kept in data/secrets-key (made on the first start).
const config = configOrExit(() => withLocalSecretsKey(loadConfig()))

/** One API process on the port; with `jobs`, the workers too (alone; under a supervisor, it runs them). */
async function serve(jobs: boolean) {
  const db = await createDb(config.db)
  if (cluster.isPrimary) await migrateToLatest(db.db, config.migrationsDir)
  const app = await buildApp(config, { db })
  await app.listen({ port: config.port, host: config.host })
  const worker = jobs
    ? startWorkerRuntime(config, db.db, app.log.child({ name: 'worker' }) as never, app.deps)
    : null
  // An API process without the workers still relays what it commits, as the production API does.
  if (!jobs) app.deps.outbox.start(1000)
  onShutdown(app.log, config.shutdownGraceMs, async (graceMs) => {
    await Promise.all([worker?.close(), app.drain(graceMs)])
    await db.close()
  })
  return db.kind
}

function banner(redisUsed: string, dbKind: string, processes: number) {
  const webBuilt = fs.existsSync(path.join(config.webDist, 'index.html'))
  console.log(`
  Porchlight is running at ${config.publicUrl}
    PostgreSQL: ${dbKind === 'embedded' ? `embedded (PGlite, data in ${path.relative(paths.repoRoot, config.db.dataDir)})` : 'DATABASE_URL'}
    Redis:      ${redisUsed}
    Secrets:    ${config.secrets.fromFile ? `sealed with the key kept in ${path.relative(paths.repoRoot, config.secrets.keyFile)} (set SECRETS_KEY to choose one)` : 'sealed with SECRETS_KEY'}
    Mail:       ${config.mail.smtpUrl ? 'SMTP_URL' : `stored, read it at ${config.publicUrl}/dev/mailbox`}
    Web app:    ${webBuilt ? 'built' : 'not built (run pnpm build)'}
    API docs:   ${config.publicUrl}/api/docs${processes > 1 ? `\n    Processes:  ${processes} API processes (WEB_CONCURRENCY); this one migrates and runs the workers` : ''}
`)
}

/**
 * WEB_CONCURRENCY API processes on one port (node:cluster hands each connection to one of them; sockets
 * meet across them through Redis). This process migrates and runs the workers, keeps the API processes
 * running (one that dies is replaced), and on SIGTERM stops them, then its workers.
 */
async function supervise(redisUsed: string, processes: number) {
  const db = await createDb(config.db)
  await migrateToLatest(db.db, config.migrationsDir)
  const worker = startWorkerRuntime(config, db.db, pino({ level: config.logLevel, name: 'worker' }))
  let stopping = false
  const fork = () => {
    const child = cluster.fork()
    child.on('exit', (code, signal) => {
      if (stopping) return
      console.error(`An API process stopped (${signal ?? `exit ${code}`}); starting another.`)
      fork()
    })
    return child
  }
  const children = Array.from({ length: processes }, fork)
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('listening', resolve))))
  banner(redisUsed, 'server', processes)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1)
      stopping = true
      // As onShutdown does for one process: the API processes drain within the grace, and so do the
      // workers here; whatever is still closing a second after it is ended.
      setTimeout(() => process.exit(1), config.shutdownGraceMs + 1000).unref()
      const running = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)
      const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)))
      for (const child of running) child.process.kill('SIGTERM')
      Promise.all(exited)
        .then(() => worker.close())
        .then(() => db.close())
        .then(
          () => process.exit(0),
          (err) => {
            console.error(err)
            process.exit(1)
          },
        )
    })
  }
}

// API processes of the supervisor run no workers: it runs them itself.
if (cluster.isWorker) {
  await serve(false)
} else {
  const redisUsed = await ensureRedis(config.redis.url, config.redis.explicit)
  if (config.webConcurrency > 1 && !config.db.url) {
    console.warn(
      'WEB_CONCURRENCY needs DATABASE_URL: the embedded PostgreSQL serves one process. Running one.',
    )
  }
  if (config.webConcurrency > 1 && config.db.url) await supervise(redisUsed, config.webConcurrency)
  else banner(redisUsed, await serve(true), 1)
}
