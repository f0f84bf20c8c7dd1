import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/** Serves the built web app; every non-API GET falls back to index.html for client routing. */
export function registerWebApp(app: FastifyInstance, webDist: string): void {
  const index = path.join(webDist, 'index.html')
  if (!fs.existsSync(index)) return
  void app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build wrote a .br and a .gz beside each text file (web/build/precompress.ts): the one the
    // browser accepts is sent, with Content-Encoding and Vary: accept-encoding.
    preCompressed: true,
    setHeaders: (reply, file) => {
      // Hashed file names change with their content: cache them for good. Everything else (the page,
      // the service worker) is checked on every load, so a deploy reaches phones at once.
      if (file.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable')
      } else {
        reply.header('cache-control', 'no-cache')
      }
    },
  })
  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/'
    if (url.startsWith('/api/') || url === '/api') {
      return reply.callNotFound()
    }
    const file = path.normalize(path.join(webDist, decodeURIComponent(url)))
    // A NUL byte names no file (and would make the file system call throw): such a path is a page route.
    if (
      !file.includes('\0') &&
      file.startsWith(webDist) &&
      file !== webDist &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      return reply.sendFile(path.relative(webDist, file))
    }
    reply.header('cache-control', 'no-cache')
    return reply.sendFile('index.html')
  })
}
