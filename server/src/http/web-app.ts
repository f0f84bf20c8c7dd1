import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

/**
 * A guest page on a weak signal: the page carries its own script and styles (web/build/inline-page.ts);
 * the Link header names the open house it reads, so the phone fetches it in parallel with the page
 * instead of after the page's script has run.
 */
function guestDataLinks(url: string, query: unknown): string {
  const raw = (query as { openHouseId?: unknown } | undefined)?.openHouseId
  const id = typeof raw === 'string' && /^\d{1,12}$/.test(raw) ? raw : null
  if (!id) return ''
  return [
    `</api/public/getOpenHouseDetails/${id}>; rel=preload; as=fetch; crossorigin`,
    ...(url === '/public/OpenHouseToday'
      ? [`</api/public/getOpenHouseAttendees/${id}?limit=200>; rel=preload; as=fetch; crossorigin`]
      : []),
  ].join(', ')
}

/**
 * The page's own scripts, by their hash, for the Content-Security-Policy: they run, and no other
 * inline script (one injected by an attacker) does.
 */
function inlineScriptHashes(page: string): string[] {
  return [...page.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '')
        .digest('base64')}'`,
  )
}

/** A page of the build that carries its own script, with what its Content-Security-Policy allows. */
interface InlinePage {
  file: string
  scriptHashes: string[]
}

/** The built page `file`, or the agent app's index.html when the build has none. */
function inlinePage(webDist: string, file: string): InlinePage {
  const page = fs.existsSync(path.join(webDist, file)) ? file : 'index.html'
  return { file: page, scriptHashes: inlineScriptHashes(fs.readFileSync(path.join(webDist, page), 'utf8')) }
}

/**
 * Serves the built web app; every non-API GET falls back to a page for client routing: guest.html (the
 * light guest app, web/vite.config.ts) under /public/, landing.html (the agents' landing page,
 * prerendered, docs/decisions/013-landing-page.md) for /, index.html (the agent app) elsewhere.
 */
export function registerWebApp(app: FastifyInstance, webDist: string): void {
  const index = path.join(webDist, 'index.html')
  if (!fs.existsSync(index)) return
  const guestPage = inlinePage(webDist, 'guest.html')
  const landingPage = inlinePage(webDist, 'landing.html')
  const inside = path.join(path.resolve(webDist), path.sep)
  // `serve: false`: the plugin only sends files (reply.sendFile), and the one route below finds them.
  // Its `wildcard: false` registered a GET and a HEAD route for every file of the build, its
  // compressed copies included (about 1,700 routes): each insertion recompiled the router's matchers,
  // about 0.3 s of every start on a 2-core machine, and the routes' contexts stayed in the heap.
  void app.register(fastifyStatic, {
    root: webDist,
    serve: false,
    index: false,
    // The build wrote a .br and a .gz beside each text file (web/build/precompress.mjs): the one the
    // browser accepts is sent, with Content-Encoding and Vary: accept-encoding.
    preCompressed: true,
    setHeaders: (reply, file) => {
      // The pages that carry their own script, asked for by their file name (as the guest pages'
      // service worker once did), come with the policy that lets that script run, as under their routes.
      const name = (path.isAbsolute(file) ? path.relative(webDist, file) : file).replace(/\.(br|gz)$/, '')
      for (const page of [guestPage, landingPage]) {
        if (page.file !== 'index.html' && name === page.file) allowOwnScripts(reply, page)
      }
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
      file.startsWith(inside) &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      return reply.sendFile(path.relative(webDist, file))
    }
    reply.header('cache-control', 'no-cache')
    // A seller's private report (the agent app's page): search engines never list its address.
    if (url.startsWith('/seller/')) reply.header('x-robots-tag', 'noindex')
    if (url === '/') return sendInlinePage(reply, landingPage)
    if (!url.startsWith('/public/')) return reply.sendFile('index.html')
    const links = guestDataLinks(url, req.query)
    if (links) reply.header('link', links)
    return sendInlinePage(reply, guestPage)
  })
}

/** Sends a page that carries its own script, which the Content-Security-Policy lets run by its hash. */
function sendInlinePage(reply: FastifyReply, page: InlinePage) {
  allowOwnScripts(reply, page)
  return reply.sendFile(page.file)
}

/** Adds the hashes of the page's own scripts to the Content-Security-Policy's script-src. */
function allowOwnScripts(reply: FastifyReply, page: InlinePage) {
  const policy = reply.getHeader('content-security-policy')
  const [first] = page.scriptHashes
  if (typeof policy === 'string' && first && !policy.includes(first)) {
    reply.header(
      'content-security-policy',
      policy.replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 ${page.scriptHashes.join(' ')}`),
    )
  }
}
