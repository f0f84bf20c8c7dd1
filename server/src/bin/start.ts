// `pnpm start`: one command for a laptop — migrations, API, sockets, workers and the built web app,
// on embedded PostgreSQL and a local Redis unless DATABASE_URL / REDIS_URL say otherwise. On the
// embedded database the workers run in the API's process (PGlite serves one process). With DATABASE_URL
// this process migrates and keeps running the workers' process (server/src/bin/worker.ts, as in
// production) and WEB_CONCURRENCY API processes (one unless told), hands them the port's connections,
// and gives the workers precedence: the API processes run at a lower priority (decision 062), so mail
// keeps up with sign-ins on a machine whose cores they saturate.
import { type ChildProcess, spawn } from 'node:child_process'
import cluster from 'node:cluster'
import fs from 'node:fs'
import type http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import webpush from 'web-push'
import {
  childEnvironment,
  configOrExit,
  loadConfig,
  paths,
  withLocalSecretsKey,
  withLocalVapidKeys,
} from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { lowerPriority } from '../lib/priority.ts'
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
// Without VAPID keys, the pair kept in data/vapid-keys.json (made on the first start).
const config = configOrExit(() =>
  withLocalVapidKeys(withLocalSecretsKey(loadConfig()), () => webpush.generateVAPIDKeys()),
)

/** A port another program holds (often an earlier `pnpm start`) is said plainly, not as a stack. */
function portTaken(err: unknown): never {
  if ((err as { code?: string }).code === 'EADDRINUSE') {
    fail(
      `Port ${config.port} is in use (another pnpm start, or another program): stop it, or choose another port, e.g. PORT=${config.port + 1} pnpm start`,
    )
  }
  throw err
}

/** The API, sockets and workers: ~3 s of module loading (more with tsx's cache cold). */
const loadServerModules = () =>
  Promise.all([
    import('../compose/app.ts'),
    import('../compose/worker.ts'),
    import('../http/observe.ts'),
  ]).then(([app, worker, observe]) => ({
    buildApp: app.buildApp,
    startWorkerRuntime: worker.startWorkerRuntime,
    serveMetrics: observe.serveMetrics,
  }))

/**
 * In a process that serves (an API process, or the one process of the embedded database), read from the
 * start, while the database opens (PGlite compiles its WebAssembly on other threads and starts
 * PostgreSQL) rather than before it. The supervisor on PostgreSQL serves nothing and reads none of them.
 */
const serverModules = cluster.isWorker || !config.db.url ? loadServerModules() : null

/** The database, migrated by the process that migrates (the primary). */
async function openDb() {
  const db = await createDb(config.db)
  if (cluster.isPrimary) await migrateToLatest(db.db, config.migrationsDir)
  return db
}

/** The message with which the supervisor hands an API process a connection (its socket goes along). */
const CONNECTION = 'porchlight:connection'
/** The message with which an API process tells the supervisor it can take connections. */
const READY = 'porchlight:ready'

/**
 * Lets the requests under way on handed connections finish (the server's close does not wait for
 * connections it did not accept itself): idle ones are closed as they become idle, and whatever is still
 * open after 5 s is ended.
 */
async function finishHanded(server: http.Server, handed: Set<net.Socket>): Promise<void> {
  const deadline = Date.now() + 5000
  while (handed.size > 0 && Date.now() < deadline) {
    server.closeIdleConnections()
    await new Promise((r) => setTimeout(r, 50))
  }
  for (const socket of handed) socket.destroy()
}

/**
 * One API process on the port; with `jobs`, the workers too (alone, on the embedded database; under the
 * supervisor, the workers' process runs them). Under the supervisor it listens on nothing: the
 * supervisor accepts each connection and hands it over.
 */
async function serve(jobs: boolean) {
  const [db, { buildApp, serveMetrics, startWorkerRuntime }] = await Promise.all([
    openDb(),
    serverModules ?? loadServerModules(),
  ])
  const app = await buildApp(config, { db })
  const handed = new Set<net.Socket>()
  if (cluster.isWorker) {
    await app.ready()
    // Node starts an HTTP server's list of connections (its close ends the idle keep-alive ones through
    // it) and its request timeouts when it listens; this one never does, so start them.
    app.server.emit('listening')
    process.on('message', (message, socket) => {
      if (message !== CONNECTION || !(socket instanceof net.Socket)) return
      handed.add(socket)
      socket.once('close', () => handed.delete(socket))
      app.server.emit('connection', socket)
      socket.resume()
    })
    process.send?.(READY)
  } else {
    await app.listen({ port: config.port, host: config.host }).catch(portTaken)
    // One process: the API's and the workers' metrics are this one's (METRICS_PORT).
    if (config.metrics.port) await serveMetrics(config.metrics.port, config.host)
  }
  const worker = jobs
    ? startWorkerRuntime(config, db.db, app.log.child({ name: 'worker' }) as never, app.deps)
    : null
  // An API process without the workers still relays what it commits, as the production API does.
  if (!jobs) app.deps.outbox.start(1000)
  onShutdown(app.log, config.shutdownGraceMs, async (graceMs) => {
    await Promise.all([worker?.close(), app.drain(graceMs)])
    // Connections the supervisor handed over are closed as they become idle (drain answered them all).
    await finishHanded(app.server, handed)
    await db.close()
  })
  return db.kind
}

/**
 * The workers' own process on PostgreSQL (server/src/bin/worker.ts, the production entry point), given
 * this start's settings; one that stops is started again. Started by this process, it takes this
 * process's priority, above the API processes' (a process takes the nice value of the thread that starts
 * it, and an unprivileged one can never lower it again): so a worker started again after a crash has
 * precedence too. Resolves the function that stops it (SIGTERM, its own grace).
 */
function startWorkerProcess(): () => Promise<void> {
  let child: ChildProcess | null = null
  let stopping = false
  const env = childEnvironment({
    DATABASE_URL: config.db.url,
    REDIS_URL: config.redis.url,
    LOG_LEVEL: config.logLevel,
    // The key kept in data/secrets-key when SECRETS_KEY is not set: the worker must seal with the same.
    ...(config.secrets.fromFile ? { SECRETS_KEY: config.secrets.keys[0]?.toString('base64') } : {}),
  })
  // Beside this file: worker.ts under tsx, worker.mjs in `pnpm start`'s bundle (server/start-bundle.ts).
  const bundled = import.meta.filename.endsWith('.mjs')
  const entry = path.join(import.meta.dirname, bundled ? 'worker.mjs' : 'worker.ts')
  const args = [...process.execArgv, ...(bundled ? ['--enable-source-maps'] : []), entry]
  const launch = () => {
    child = spawn(process.execPath, args, {
      env,
      stdio: 'inherit',
    })
    child.once('exit', (code, signal) => {
      if (stopping) return
      console.error(`The worker process stopped (${signal ?? `exit ${code}`}); starting another.`)
      setTimeout(launch, 1000).unref()
    })
  }
  launch()
  return async () => {
    stopping = true
    const running = child
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGTERM')
    await exited
  }
}

function banner(redisUsed: string, dbKind: string, processes: number) {
  const webBuilt = fs.existsSync(path.join(config.webDist, 'index.html'))
  console.log(`
  Porchlight is running at ${config.publicUrl}
    PostgreSQL: ${dbKind === 'embedded' ? `embedded (PGlite, data in ${path.relative(paths.repoRoot, config.db.dataDir)})` : 'DATABASE_URL'}
    Redis:      ${redisUsed}
    Secrets:    ${config.secrets.fromFile ? `sealed with the key kept in ${path.relative(paths.repoRoot, config.secrets.keyFile)} (set SECRETS_KEY to choose one)` : 'sealed with SECRETS_KEY'}
    Web Push:   ${config.push.fromFile ? `VAPID keys kept in ${path.relative(paths.repoRoot, config.push.vapidFile)} (set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY to choose them)` : 'VAPID_PUBLIC_KEY'}
    Mail:       ${config.mail.smtpUrl ? 'SMTP_URL' : `stored, read it at ${config.publicUrl}/dev/mailbox`}
    Workers:    ${dbKind === 'embedded' ? 'in this process (the embedded database serves one)' : `a process of their own${config.apiNiceness > 0 ? `, ahead of the API when the cores are busy (the API at nice +${config.apiNiceness}, API_NICENESS)` : ''}`}
    Web app:    ${webBuilt ? 'built' : 'not built (run pnpm build)'}
    Started:    in ${process.uptime().toFixed(1)} s
    API docs:   ${config.publicUrl}/api/docs${processes > 1 ? `\n    Processes:  ${processes} API processes (WEB_CONCURRENCY); this one migrates and keeps them and the workers' process running` : ''}
`)
}

/** The same address always gives the same number (FNV-1a): a visitor's connections meet one process. */
function addressHash(address: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < address.length; i++) hash = Math.imul(hash ^ address.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/**
 * On PostgreSQL: the workers' process and WEB_CONCURRENCY API processes behind one port. This process
 * accepts every connection and hands it to the API process its visitor's address picks, always the same
 * one while it runs: socket.io's long-polling (the official client's default first step) sends each
 * request of a session to the process that opened it, and the WebSocket upgrade too
 * (docs/decisions/036-sockets-stick-to-one-process.md). Rooms meet across processes through Redis. It
 * migrates, keeps the workers' process and the API processes running (one that dies is replaced in its
 * place), and on SIGTERM stops listening, then all of them. It stays at the priority it was started with,
 * so that every process it starts, first or replacement, begins there too: the API processes lower
 * theirs as they start, the workers' process keeps it (decision 062).
 */
async function supervise(redisUsed: string, processes: number) {
  // Migrated before the workers' process and the API processes start (neither migrates).
  await (await openDb()).close()
  // The workers' metrics are on METRICS_PORT (their process serves them); each API process's are at
  // /metrics on the port with METRICS_TOKEN.
  const stopWorker = startWorkerProcess()
  let stopping = false
  // One place per API process; a replacement takes its predecessor's place, so addresses keep theirs.
  const places: Array<{ child: ReturnType<typeof cluster.fork>; ready: boolean }> = []
  const fork = (place: number) =>
    new Promise<void>((resolve) => {
      const child = cluster.fork()
      places[place] = { child, ready: false }
      child.on('message', (message) => {
        if (message !== READY) return
        places[place] = { child, ready: true }
        resolve()
      })
      child.on('exit', (code, signal) => {
        if (places[place]?.child === child) places[place] = { child, ready: false }
        if (stopping) return
        console.error(`An API process stopped (${signal ?? `exit ${code}`}); starting another.`)
        // One that stopped before it was ready is ready once its replacement is.
        void fork(place).then(resolve)
      })
    })
  await Promise.all(Array.from({ length: processes }, (_, place) => fork(place)))

  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    const first = addressHash(socket.remoteAddress ?? '') % processes
    // While a process is being replaced, its visitors go to the next one that runs.
    for (let i = 0; i < processes; i++) {
      const place = places[(first + i) % processes]
      if (!place?.ready || !place.child.isConnected()) continue
      place.child.send(CONNECTION, socket, (err) => {
        if (err) socket.destroy()
      })
      return
    }
    socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, resolve)
  }).catch(portTaken)
  banner(redisUsed, 'server', processes)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1)
      stopping = true
      server.close()
      // As onShutdown does for one process: the API processes drain within the grace, and so do the
      // workers here; whatever is still closing a second after it is ended.
      setTimeout(() => process.exit(1), config.shutdownGraceMs + 1000).unref()
      const running = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)
      const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)))
      for (const child of running) child.process.kill('SIGTERM')
      Promise.all([...exited, stopWorker()]).then(
        () => process.exit(0),
        (err) => {
          console.error(err)
          process.exit(1)
        },
      )
    })
  }
}

// API processes of the supervisor run no workers (their own process does), and give way to them.
if (cluster.isWorker) {
  lowerPriority(config.apiNiceness)
  await serve(false)
} else {
  const redisUsed = await ensureRedis(config.redis.url, config.redis.explicit)
  if (config.webConcurrency > 1 && !config.db.url) {
    console.warn(
      'WEB_CONCURRENCY needs DATABASE_URL: the embedded PostgreSQL serves one process. Running one.',
    )
  }
  if (config.db.url) await supervise(redisUsed, config.webConcurrency)
  else banner(redisUsed, await serve(true), 1)
}
