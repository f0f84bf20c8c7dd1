import { createHash } from 'node:crypto'
import type { Plugin } from 'vite'

/**
 * The guest pages' service worker (`/sw.js`, scope `/public/`), written at build time, so a second
 * scan, or a scan on a flickering signal, opens from the cache (docs/decisions/034-offline-guest-pages.md):
 * - the page (guest.html, which carries its script and styles, inline-page.ts) is kept as the server
 *   serves it under /public/, with the Content-Security-Policy that lets its own script run. It is kept
 *   when the worker installs, on the first visit, and again on every page load with a signal: the
 *   network first (3 s), then the kept page;
 * - the open houses a guest page reads (GET /api/public/…): the network first, then the last answer;
 *   the open houses of the pages open when the worker installs are fetched then, so the first visit
 *   is enough. These answers stay across releases (their shape is the API's, not the page's).
 * A release is a new worker: it keeps the new page before it takes over and only then drops the old
 * one, so a phone never holds no page. A page opened from the cache asks for the new worker when the
 * phone is back online.
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
const PAGES = 'porchlight-guest-${version}'
const DATA = 'porchlight-guest-data'
const SCOPE = '/public/'
// Any guest route answers the guest page, with the policy for its script (server/src/http/web-app.ts).
const PAGE = '/public/OpenHouseToday'
const PRECACHE = [PAGE]
const DETAILS = '/api/public/getOpenHouseDetails/'

// The open houses of the guest pages open now (the first visit: not yet through this worker).
function openHousesShown() {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
    const ids = new Set()
    for (const client of clients) {
      const url = new URL(client.url)
      const id = url.searchParams.get('openHouseId')
      if (url.pathname.startsWith(SCOPE) && id && /^\\d{1,12}$/.test(id)) ids.add(id)
    }
    return [...ids]
  })
}

function keepOpenHouses(ids) {
  return caches.open(DATA).then((cache) =>
    Promise.all(
      ids.map((id) =>
        fetch(DETAILS + id)
          .then((response) => (response.ok ? cache.put(DETAILS + id, response) : undefined))
          .catch(() => undefined),
      ),
    ),
  )
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(PAGES)
      .then((cache) =>
        Promise.all(
          PRECACHE.map((url) =>
            fetch(url, { cache: 'reload' }).then((response) => {
              if (!response.ok) throw new Error('the guest page answered ' + response.status)
              return cache.put(url, response)
            }),
          ),
        ),
      )
      .then(openHousesShown)
      .then(keepOpenHouses)
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('porchlight-guest-') && key !== PAGES && key !== DATA)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  )
})

// The page is kept with its headers (its Content-Security-Policy above all) but without the Link
// header, which names the open house of the one visit it came from.
function asPage(response) {
  const headers = new Headers(response.headers)
  headers.delete('link')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

function networkFirst(request, cacheName, cacheKey, timeoutMs, keep = (response) => response) {
  return caches.open(cacheName).then((cache) => {
    const fromNetwork = fetch(request).then((response) => {
      if (response.ok) cache.put(cacheKey, keep(response.clone()))
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
  if (request.mode === 'navigate' && url.pathname.startsWith(SCOPE)) {
    event.respondWith(networkFirst(request, PAGES, PAGE, 3000, asPage))
  } else if (url.pathname.startsWith('/api/public/')) {
    event.respondWith(networkFirst(request, DATA, request, 3000))
  }
})
`
}
