import path from 'node:path'
import { TEST_SECRETS_KEY } from './app.ts'
import { freePort, type StartedProcess, startProcess } from './processes.ts'

const serverDir = path.resolve(import.meta.dirname, '../../server')

export interface ApiProcess extends StartedProcess {
  origin: string
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
