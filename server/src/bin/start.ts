// `pnpm start`: one process for a laptop — migrations, API, sockets, workers and the built web app,
// on embedded PostgreSQL and a local Redis unless DATABASE_URL / REDIS_URL say otherwise.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { buildApp } from '../compose/app.ts'
import { startWorkerRuntime } from '../compose/worker.ts'
import { configOrExit, paths } from '../config.ts'
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

const config = configOrExit()
const redisUsed = await ensureRedis(config.redis.url, config.redis.explicit)
const db = await createDb(config.db)
await migrateToLatest(db.db, config.migrationsDir)
const app = await buildApp(config, { db })
await app.listen({ port: config.port, host: config.host })
const worker = startWorkerRuntime(config, db.db, app.log.child({ name: 'worker' }) as never, app.deps)

const webBuilt = fs.existsSync(path.join(config.webDist, 'index.html'))
console.log(`
  Porchlight is running at ${config.publicUrl}
    PostgreSQL: ${db.kind === 'embedded' ? `embedded (PGlite, data in ${path.relative(paths.repoRoot, config.db.dataDir)})` : 'DATABASE_URL'}
    Redis:      ${redisUsed}
    Mail:       ${config.mail.smtpUrl ? 'SMTP_URL' : `stored, read it at ${config.publicUrl}/dev/mailbox`}
    Web app:    ${webBuilt ? 'built' : 'not built (run pnpm build)'}
    API docs:   ${config.publicUrl}/api/docs
`)

onShutdown(app.log, async () => {
  await worker.close()
  await app.close()
  await db.close()
})
