import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024

/**
 * Brotli's quality: 11 (`best`, `pnpm build:web`, what production serves) costs ~6.5 s of CPU for the
 * build's ~3.4 MB of text, 5 (`fast`, the build `pnpm start` makes on a laptop) ~0.1 s for ~11 % more
 * bytes (0.93 MB against 0.84 MB in all).
 */
const QUALITY = /** @type {const} */ ({ best: 11, fast: 5 })

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`, level 9) copy beside every text file under `dir`, once,
 * after the builds (the agent app, the guest pages and the landing page all write into it); the server
 * sends the copy the browser asks for (`Accept-Encoding`), so no request pays for compressing and a
 * phone on one bar downloads a fraction of the bytes. zlib's asynchronous calls run on libuv's threads:
 * the files are compressed on every core at once.
 */
/**
 * @param {string} dir
 * @param {keyof typeof QUALITY} level
 * @returns {Promise<void>}
 */
export async function precompressDir(dir, level) {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true })
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
  await Promise.all(
    files.map(async (file) => {
      const source = await fs.readFile(file)
      if (source.length < MIN_BYTES) return
      const params = {
        [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY[level],
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      }
      const [br, gz] = await Promise.all([brotli(source, { params }), gzip(source, { level: 9 })])
      await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)])
    }),
  )
}
