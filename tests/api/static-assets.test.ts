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
    // The page is too small to gain from compression (under 1 KB); it is sent as it is.
    expect(text(page)).toContain('<div id="root">')
    const worker = await get('/sw.js', 'br')
    expect(worker.headers['content-type']).toMatch(/javascript/)
    // The worker lists the files a guest page loads, each of which exists.
    expect(worker.headers['content-encoding']).toBe('br')
    const listed = /const PRECACHE = (\[.*\])/.exec(text(worker))?.[1]
    const files: string[] = JSON.parse(listed ?? '[]')
    expect(files.length).toBeGreaterThan(3)
    for (const file of files) expect(fs.existsSync(path.join(t.config.webDist, file)), file).toBe(true)
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

  it('names in a Link header everything a guest page needs, and the open house it reads, to fetch at once', async () => {
    const page = await get('/public/OpenHouseToday?openHouseId=42&from=qrcode')
    const links = String(page.headers.link ?? '')
    const files: string[] = JSON.parse(
      fs.readFileSync(path.join(t.config.webDist, 'guest-preload.json'), 'utf8'),
    )
    expect(files.length).toBeGreaterThan(3)
    for (const file of files) {
      expect(fs.existsSync(path.join(t.config.webDist, file)), file).toBe(true)
      expect(links, file).toContain(
        `<${file}>; rel=${file.endsWith('.css') ? 'preload; as=style' : 'modulepreload'}`,
      )
    }
    expect(links).toContain('</api/public/getOpenHouseDetails/42>; rel=preload; as=fetch; crossorigin')
    expect(links).toContain(
      '</api/public/getOpenHouseAttendees/42?limit=200>; rel=preload; as=fetch; crossorigin',
    )
    // Nothing of a query that is not an open house id goes into the header; agent pages get none.
    const odd = await get('/public/OpenHouseToday/new?openHouseId=1%3E%3B%20rel%3Dstylesheet')
    expect(String(odd.headers.link)).not.toContain('/api/')
    expect((await get('/dashboard')).headers.link).toBeUndefined()
  })
})
