import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { parse as parseYaml } from 'yaml'
import { TEST_SECRETS_KEY } from './app.ts'
import { freePort, type StartedProcess, startProcess } from './processes.ts'

const rootDir = path.resolve(import.meta.dirname, '../..')
const serverDir = path.join(rootDir, 'server')

export interface ApiProcess extends StartedProcess {
  origin: string
  /** Who it runs as, when not the test's own user. */
  user?: string
}

/** Whether the API at `origin` answers /api/ready with 200 (PostgreSQL and Redis both up for it). */
export const isReady = (origin: string) =>
  fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(3000) }).then(
    (r) => r.status === 200,
    () => false,
  )

/**
 * The production API process (`server/src/bin/api.ts`) with `env` as its settings, on `port` (a
 * replacement in its predecessor's place) or a free one.
 */
export async function startApiProcess(env: Record<string, string>, port?: number): Promise<ApiProcess> {
  port ??= await freePort()
  const origin = `http://127.0.0.1:${port}`
  const started = startProcess('API', process.execPath, ['--import', 'tsx', 'src/bin/api.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      SECRETS_KEY: TEST_SECRETS_KEY,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
    },
  })
  // A start on a busy machine (two test files, their servers and Chromium on two cores) took over 45 s.
  await started.waitUntil('a ready answer', () => isReady(origin), 90_000)
  return { ...started, origin }
}

/** The production worker process (`server/src/bin/worker.ts`), with `env` as its settings. */
export function startWorkerProcess(env: Record<string, string>): StartedProcess {
  return startProcess('worker', process.execPath, ['--import', 'tsx', 'src/bin/worker.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, SECRETS_KEY: TEST_SECRETS_KEY, ...env },
  })
}

/**
 * The image's user (Dockerfile `USER node`): the host's `node` if it has one, else `nobody`. Either
 * is unprivileged; the processes need to read the checkout and write nothing.
 */
function imageUser(): { name: string; uid: number; gid: number } {
  for (const name of ['node', 'nobody']) {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`))
    const [, , uid, gid] = line?.split(':') ?? []
    if (uid && gid) return { name, uid: Number(uid), gid: Number(gid) }
  }
  throw new Error('no unprivileged user (node or nobody) on this machine to run the image as')
}

/** `pnpm build:server`'s output, as CI's `pnpm build` leaves it; built here when it is missing. */
export function ensureServerBuilt(): string {
  const entry = path.join(serverDir, 'dist/api.js')
  if (!fs.existsSync(entry))
    execFileSync(process.execPath, ['--import', 'tsx', 'build.ts'], { cwd: serverDir })
  return entry
}

/** A service's environment in docker-compose.yml (anchors merged), with the image's ENV under it. */
export function composeApiSettings(service: 'api' | 'worker' = 'api'): Record<string, string> {
  const compose = parseYaml(fs.readFileSync(path.join(rootDir, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as { services: Record<string, { environment: Record<string, string | number> }> }
  const image = { HOST: '0.0.0.0', PORT: '3000', NODE_OPTIONS: '--enable-source-maps' }
  // `${NAME:-default}` / `${NAME:?message}`: the default, or nothing (the test gives its own).
  const value = (v: string | number) =>
    String(v).replace(/\$\{\w+(?::-([^}]*)|:\?[^}]*)?\}/g, (_, d = '') => d)
  const settings: Record<string, string> = { ...image }
  for (const [name, v] of Object.entries(compose.services[service]?.environment ?? {}))
    settings[name] = value(v)
  return settings
}

/** `setpriv`'s arguments: `node` with the server's V8 flags, as the image's CMD runs it, as `user`. */
const asImageUser = (user: ReturnType<typeof imageUser>, entry: string) => [
  `--reuid=${user.uid}`,
  `--regid=${user.gid}`,
  '--clear-groups',
  process.execPath,
  ...SERVER_NODE_FLAGS,
  entry,
]

/**
 * The API as the image runs it: `node server/dist/api.js` with the server's V8 flags (compiled, no
 * tsx) as the image's unprivileged user, with docker-compose.yml's settings for the api service. What differs on this
 * machine is overridden by `env`: the servers' addresses (there `postgres`, `redis`, `mail`), the
 * ports (two processes on one host), PUBLIC_URL and the secrets key.
 */
export async function startProductionApi(env: Record<string, string>, port?: number): Promise<ApiProcess> {
  port ??= await freePort()
  const origin = `http://127.0.0.1:${port}`
  const entry = ensureServerBuilt()
  const user = imageUser()
  const started = startProcess('API', 'setpriv', asImageUser(user, entry), {
    cwd: rootDir,
    env: {
      PATH: process.env.PATH,
      ...composeApiSettings(),
      SECRETS_KEY: TEST_SECRETS_KEY,
      METRICS_PORT: String(await freePort()),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
    },
  })
  await started.waitUntil('a ready answer', () => isReady(origin), 90_000)
  return { ...started, origin, user: user.name }
}

/**
 * The worker as the image runs it: `node server/dist/worker.js` with the server's V8 flags, as the
 * image's user, with docker-compose.yml's settings for the worker service, `env` overriding what differs on this machine.
 */
export function startProductionWorker(env: Record<string, string>): StartedProcess & { user: string } {
  const entry = path.join(path.dirname(ensureServerBuilt()), 'worker.js')
  const user = imageUser()
  const started = startProcess('worker', 'setpriv', asImageUser(user, entry), {
    cwd: rootDir,
    env: {
      PATH: process.env.PATH,
      ...composeApiSettings('worker'),
      SECRETS_KEY: TEST_SECRETS_KEY,
      ...env,
    },
  })
  return { ...started, user: user.name }
}
