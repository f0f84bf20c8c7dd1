import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/**
 * A guest page on a weak signal: the Link header names every file it needs at once (the build lists
 * them in guest-preload.json) and the open house it reads, so the phone fetches them in parallel with
 * the page instead of one round trip after another.
 */
function guestPreloadLinks(webDist: string): (url: string, query: unknown) => string {
  let files: string[] = []
  try {
    files = JSON.parse(fs.readFileSync(path.join(webDist, 'guest-preload.json'), 'utf8')) as string[]
  } catch {
    // A build without the list: pages load as before, one file after another.
  }
  const assets = files.map((file) =>
    file.endsWith('.css') ? `<${file}>; rel=preload; as=style` : `<${file}>; rel=modulepreload`,
  )
  return (url, query) => {
    const raw = (query as { openHouseId?: unknown } | undefined)?.openHouseId
    const id = typeof raw === 'string' && /^\d{1,12}$/.test(raw) ? raw : null
    const data = id
      ? [
          `</api/public/getOpenHouseDetails/${id}>; rel=preload; as=fetch; crossorigin`,
          ...(url === '/public/OpenHouseToday'
            ? [`</api/public/getOpenHouseAttendees/${id}?limit=200>; rel=preload; as=fetch; crossorigin`]
            : []),
        ]
      : []
    return [...assets, ...data].join(', ')
  }
}

/** Serves the built web app; every non-API GET falls back to index.html for client routing. */
export function registerWebApp(app: FastifyInstance, webDist: string): void {
  const index = path.join(webDist, 'index.html')
  if (!fs.existsSync(index)) return
  const guestPreload = guestPreloadLinks(webDist)
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
    const links = url.startsWith('/public/') ? guestPreload(url, req.query) : ''
    if (links) reply.header('link', links)
    return reply.sendFile('index.html')
  })
}
