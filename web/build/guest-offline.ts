import { createHash } from 'node:crypto'
import type { Plugin } from 'vite'

/**
 * The guest pages' service worker (`/sw.js`, scope `/public/`), written at build time, so a second
 * scan, or a scan on a flickering signal, opens from the cache:
 * - the page (guest.html, which carries its script and styles, inline-page.ts): the network first
 *   (3 s), then the cached page;
 * - the open house a guest page reads (GET /api/public/…): the network first, then the last answer.
 * Sign-ins are never cached: a sign-in made offline waits in local storage (pending-sign-ins.ts) and is
 * sent once when the phone is back online.
 */
export function guestServiceWorker(): Plugin {
  return {
    name: 'porchlight-guest-service-worker',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['guest.html']
      if (page?.type !== 'asset') throw new Error('guest service worker: the guest build has no guest.html')
      // A new page is a new worker: phones drop the old page from their cache when it installs.
      const version = createHash('sha256').update(page.source).digest('hex').slice(0, 12)
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: workerSource(version) })
    },
  }
}

function workerSource(version: string): string {
  return `// Written by web/build/guest-offline.ts at build time.
const CACHE = 'porchlight-guest-${version}'
const SHELL = '/public/'
const PRECACHE = ['/guest.html']

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
    event.respondWith(networkFirst(request, '/guest.html', 3000))
  } else if (url.pathname.startsWith('/api/public/')) {
    event.respondWith(networkFirst(request, request, 3000))
  }
})
`
}
