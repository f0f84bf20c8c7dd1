import { afterAll, beforeAll } from 'vitest'
import { buildTestApp, type TestApp } from './app.ts'
import { connectSocket, type TestSocket } from './socket.ts'

/**
 * Two API processes' worth of app on one database and Redis, as behind a load balancer: what one
 * server does, sockets on the other must hear. `socketOf` connects an agent to either; every socket
 * and both apps close after the file.
 */
export function twoServers() {
  const servers: { a?: TestApp; b?: TestApp } = {}
  const sockets: TestSocket[] = []
  beforeAll(async () => {
    servers.a = await buildTestApp()
    servers.b = await buildTestApp({ sameAs: servers.a })
  })
  afterAll(async () => {
    for (const s of sockets) s.close()
    await servers.b?.close()
    await servers.a?.close()
  })
  const started = (app: TestApp | undefined) => {
    if (!app) throw new Error('the servers start in beforeAll')
    return app
  }
  return {
    get a() {
      return started(servers.a)
    },
    get b() {
      return started(servers.b)
    },
    async socketOf(app: TestApp, token: string) {
      const s = await connectSocket(app.url, { token })
      sockets.push(s)
      return s
    },
  }
}
