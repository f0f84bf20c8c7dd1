import { createHash } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

// The built web app as a phone on one bar downloads it: compressed, and hashed files cached for good.
let t: TestApp
let assets: string[]

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  const dir = path.join(t.config.webDist, 'assets')
  assets = fs
    .readdirSync(dir)
    .filter((f) => /\.(js|css)$/.test(f) && fs.statSync(path.join(dir, f)).size >= 1024)
})
afterAll(() => t.close())

/** The body as the browser reads it, whichever encoding was chosen. */
const text = (res: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  (res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.body) : res.body).toString()

/** The raw answer, bytes as sent (fetch would undo the compression). */
function get(pathname: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.get(
        `${t.url}${pathname}`,
        { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          )
        },
      )
      req.on('error', reject)
    },
  )
}

describe('the built web app over the wire', () => {
  it('sends every hashed script and style brotli- or gzip-compressed as asked, cached as immutable', async () => {
    expect(assets.length).toBeGreaterThan(10)
    for (const file of assets) {
      const original = fs.readFileSync(path.join(t.config.webDist, 'assets', file))
      const br = await get(`/assets/${file}`, 'gzip, deflate, br')
      expect(br.status, file).toBe(200)
      expect(br.headers['content-encoding'], file).toBe('br')
      expect(br.headers['cache-control'], file).toContain('immutable')
      expect(br.headers.vary, file).toMatch(/accept-encoding/i)
      expect(br.headers['content-type'], file).toMatch(file.endsWith('.js') ? /javascript/ : /text\/css/)
      expect(zlib.brotliDecompressSync(br.body).equals(original), file).toBe(true)
      expect(br.body.length, file).toBeLessThan(original.length)

      const gz = await get(`/assets/${file}`, 'gzip')
      expect(gz.headers['content-encoding'], file).toBe('gzip')
      expect(zlib.gunzipSync(gz.body).equals(original), file).toBe(true)

      const plain = await get(`/assets/${file}`)
      expect(plain.headers['content-encoding'], file).toBeUndefined()
      expect(plain.body.equals(original), file).toBe(true)
    }
  })

  it('has the page and the service worker checked on every load, compressed too', async () => {
    for (const pathname of ['/', '/public/OpenHouseToday?openHouseId=1', '/sw.js']) {
      const res = await get(pathname, 'br')
      expect(res.status, pathname).toBe(200)
      expect(res.headers['cache-control'], pathname).toBe('no-cache')
    }
    const page = await get('/public/OpenHouseToday?openHouseId=1', 'br')
    expect(page.headers['content-type']).toMatch(/text\/html/)
    // The guest page carries its script and styles: it is sent compressed.
    expect(page.headers['content-encoding']).toBe('br')
    expect(text(page)).toContain('<div id="root">')
    const worker = await get('/sw.js', 'br')
    expect(worker.headers['content-type']).toMatch(/javascript/)
    expect(worker.headers['content-encoding']).toBe('br')
    // The worker keeps the guest page, which exists.
    // The worker keeps the guest page as its route serves it, with the policy its script runs under.
    const kept = /const PAGE = '(.*)'/.exec(text(worker))?.[1]
    expect(kept).toBe('/public/OpenHouseToday')
    expect(/const PRECACHE = \[PAGE\]/.test(text(worker))).toBe(true)
    expect(text(await get(kept ?? ''))).toBe(
      fs.readFileSync(path.join(t.config.webDist, 'guest.html'), 'utf8'),
    )
  })

  it('answers a malformed or impossible path as the caller’s error, never a server error', async () => {
    for (const pathname of ['/%E0%A4%A', '/public/%ZZ', '/api/%E0%A4%A']) {
      const res = await get(pathname)
      expect(res.status, pathname).toBe(400)
      expect(JSON.parse(text(res)), pathname).toEqual({
        error: { code: 'BAD_REQUEST', message: 'Malformed request' },
      })
    }
    // A NUL byte names no file: the app's page answers, as for any other page route.
    const nul = await get('/%00')
    expect(nul.status).toBe(200)
    expect(text(nul)).toContain('<div id="root">')
  })

  it('sends no file from beside the build, even from a folder whose name begins as its own', async () => {
    // `…/dist-beside/secret.txt` starts with `…/dist`: asked for as `/../dist-beside/secret.txt`, raw,
    // as a client that does not tidy its paths sends it.
    const beside = `${t.config.webDist}-beside`
    fs.mkdirSync(beside, { recursive: true })
    fs.writeFileSync(path.join(beside, 'secret.txt'), 'not for the web')
    try {
      for (const pathname of [
        `/../${path.basename(beside)}/secret.txt`,
        `/..%2F${path.basename(beside)}%2Fsecret.txt`,
        `/assets/../../${path.basename(beside)}/secret.txt`,
      ]) {
        const res = await get(pathname)
        expect(text(res), pathname).not.toContain('not for the web')
        expect(res.status, pathname).toBeLessThan(500)
      }
    } finally {
      fs.rmSync(beside, { recursive: true, force: true })
    }
  })

  it('names in a Link header the open house a guest page reads, to fetch it with the page', async () => {
    const page = await get('/public/OpenHouseToday?openHouseId=42&from=qrcode')
    const links = String(page.headers.link ?? '')
    expect(links).toContain('</api/public/getOpenHouseDetails/42>; rel=preload; as=fetch; crossorigin')
    expect(links).toContain(
      '</api/public/getOpenHouseAttendees/42?limit=200>; rel=preload; as=fetch; crossorigin',
    )
    // Nothing of a query that is not an open house id goes into the header; agent pages get none.
    const odd = await get('/public/OpenHouseToday/new?openHouseId=1%3E%3B%20rel%3Dstylesheet')
    expect(odd.headers.link).toBeUndefined()
    expect((await get('/dashboard')).headers.link).toBeUndefined()
  })

  it('sends a guest page as one light download: under 80 KB compressed, none of the agent app', async () => {
    const res = await get('/public/OpenHouseToday/new?openHouseId=1', 'br')
    const page = text(res)
    // One download: no script or stylesheet file to fetch after the page.
    expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+rel="(stylesheet|modulepreload)"/)
    const scripts = [...page.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(([, code]) => code)
    expect(scripts).toHaveLength(1)
    // The page's script is the guest app; the agent app's pieces (its router, forms, React itself) are not in it.
    expect(scripts[0]).toContain('OpenHouseToday')
    expect(scripts[0]).not.toMatch(/tanstack|react-aria|__reactFiber|__SECRET_INTERNALS/i)
    expect(res.body.length).toBeLessThan(80 * 1024)
    // The agent app is a different page.
    expect(text(await get('/dashboard', 'br'))).toMatch(/<script type="module" crossorigin src="\/assets\//)
  })

  it('lets the guest page run its own script and no other inline script', async () => {
    // Under its routes, and by its file name too: a page kept from there must still run offline.
    for (const [pathname, encoding] of [
      ['/public/OpenHouseToday/new?openHouseId=1', 'br'],
      ['/guest.html', 'br'],
      ['/guest.html', undefined],
      ['/landing.html', 'br'],
    ] as const) {
      const page = await get(pathname, encoding)
      const [, code] = /<script type="module">([\s\S]*?)<\/script>/.exec(text(page)) ?? []
      const hash = createHash('sha256')
        .update(code ?? '')
        .digest('base64')
      const scriptSrc = /(?:^|;)script-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]
      expect(scriptSrc?.split(' '), pathname).toEqual(["'self'", `'sha256-${hash}'`])
    }
    // Agent pages allow no inline script at all.
    const agent = await get('/dashboard')
    expect(/(?:^|;)script-src ([^;]*)/.exec(String(agent.headers['content-security-policy']))?.[1]).toBe(
      "'self'",
    )
  })

  it('sends the agents’ landing page at / as one light download, prerendered, without the agent app', async () => {
    const res = await get('/', 'gzip, deflate, br')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toBe('no-cache')
    // Its content and links are in the page itself, before any script runs.
    const page = text(res)
    expect(page).toMatch(/<h1[^>]*>Porchlight is always free for <span[^>]*>SOLO agents<\/span>/)
    for (const href of ['/signin', '/signup', '/pricingplans']) expect(page).toContain(`href="${href}"`)
    // One download: styles and script in the page, no file to fetch after it.
    expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+rel="(stylesheet|modulepreload)"/)
    const scripts = [...page.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(([, code]) => code)
    expect(scripts).toHaveLength(1)
    expect(scripts[0]).not.toMatch(/tanstack|react-aria|__reactFiber|__SECRET_INTERNALS|preact/i)
    // Everything a phone downloads for it: a tenth of the guest page's budget.
    expect(res.body.length).toBeLessThan(12 * 1024)
    // For a signed-in agent the page starts the agent app, whose entry it names.
    const app = JSON.parse(
      /<script type="application\/json" id="agent-app">(.*?)<\/script>/.exec(page)?.[1] ?? '{}',
    )
    expect(app.scripts).toEqual([expect.stringMatching(/^\/assets\/[\w-]+\.js$/)])
    expect((await get(app.scripts[0])).status).toBe(200)
  })

  it('lets the landing page run its own script and no other inline script', async () => {
    const res = await get('/')
    const [, code] = /<script type="module">([\s\S]*?)<\/script>/.exec(text(res)) ?? []
    const hash = createHash('sha256')
      .update(code ?? '')
      .digest('base64')
    const scriptSrc = /(?:^|;)script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]
    expect(scriptSrc?.split(' ')).toEqual(["'self'", `'sha256-${hash}'`])
    // The agent app's own pages are the app, as before.
    expect(text(await get('/signin'))).toMatch(/<script type="module" crossorigin src="\/assets\//)
  })
})
