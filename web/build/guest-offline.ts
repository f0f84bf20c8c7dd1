import { createHash } from 'node:crypto'
import type { Plugin } from 'vite'

/**
 * The guest pages' service worker (`/sw.js`, scope `/public/`), written at build time with the exact
 * files a guest page loads, so a second scan, or a scan on a flickering signal, opens from the cache:
 * - the page itself: the network first (3 s), then the cached shell;
 * - hashed files under /assets/: from the cache (they never change);
 * - the open house a guest page reads (GET /api/public/…): the network first, then the last answer.
 * Sign-ins are never cached: a sign-in made offline waits in local storage (pending-sign-ins.ts) and is
 * sent once when the phone is back online.
 */
export function guestServiceWorker(): Plugin {
  return {
    name: 'porchlight-guest-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = guestFiles(bundle as unknown as Bundle, true)
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12)
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: workerSource(version, files) })
      // What a guest page needs at once: the server names it in a Link header with the page, so the
      // phone fetches it all in parallel instead of discovering each file after the one before.
      this.emitFile({
        type: 'asset',
        fileName: 'guest-preload.json',
        source: JSON.stringify(guestFiles(bundle as unknown as Bundle, false)),
      })
    },
  }
}

/** What this plugin reads of the bundle vite hands to `generateBundle`. */
type Bundle = Record<
  string,
  | { type: 'asset' }
  | {
      type: 'chunk'
      fileName: string
      isEntry: boolean
      facadeModuleId: string | null
      imports: string[]
      dynamicImports: string[]
      viteMetadata?: { importedCss: Set<string> }
    }
>

/**
 * The entry, the guest app's chunk, and everything they import, with their CSS; with `lazyToo`, also
 * the guest pages loaded on demand (the kiosk).
 */
function guestFiles(bundle: Bundle, lazyToo: boolean): string[] {
  const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []))
  const entry = chunks.find((chunk) => chunk.isEntry)
  const guest = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/features/guest/guest-main.tsx'))
  if (!entry || !guest) throw new Error('guest service worker: the entry or the guest app chunk is missing')
  const files = new Set<string>()
  // The entry's own imports only (its dynamic imports are the agent app); the guest app's pages too.
  const visit = (fileName: string, lazyToo: boolean) => {
    if (files.has(fileName)) return
    files.add(fileName)
    const item = bundle[fileName]
    if (item?.type !== 'chunk') return
    for (const css of item.viteMetadata?.importedCss ?? []) files.add(css)
    for (const imported of item.imports) visit(imported, lazyToo)
    if (lazyToo) for (const imported of item.dynamicImports) visit(imported, true)
  }
  visit(entry.fileName, false)
  visit(guest.fileName, lazyToo)
  return [...files].map((file) => `/${file}`).sort()
}

function workerSource(version: string, files: string[]): string {
  return `// Written by web/build/guest-offline.ts at build time.
const CACHE = 'porchlight-guest-${version}'
const SHELL = '/public/'
const PRECACHE = ${JSON.stringify(['/index.html', ...files])}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('porchlight-guest-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  )
})

function networkFirst(request, cacheKey, timeoutMs) {
  return caches.open(CACHE).then((cache) => {
    const fromNetwork = fetch(request).then((response) => {
      if (response.ok) cache.put(cacheKey, response.clone())
      return response
    })
    const late = new Promise((resolve) => setTimeout(resolve, timeoutMs))
    const cached = () => cache.match(cacheKey)
    // A slow or failing network falls back to what was cached; with nothing cached, wait for it.
    return Promise.race([fromNetwork.catch(() => undefined), late]).then(
      (response) => response || cached().then((hit) => hit || fromNetwork),
    )
  })
}

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.mode === 'navigate' && url.pathname.startsWith(SHELL)) {
    event.respondWith(networkFirst(request, '/index.html', 3000))
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)))
  } else if (url.pathname.startsWith('/api/public/')) {
    event.respondWith(networkFirst(request, request, 3000))
  }
})
`
}
