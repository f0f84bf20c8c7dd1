import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of the
 * build, once, at build time; the server sends the copy the browser asks for (`Accept-Encoding`), so
 * no request pays for compressing and a phone on one bar downloads a fraction of the bytes. The guest
 * build writes into the agent build's folder after it: a file that already has its fresh copies is
 * left as it is.
 */
export function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'porchlight-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    writeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue
        const stat = fs.statSync(file)
        if (stat.size < MIN_BYTES) continue
        const compressed = fs.statSync(`${file}.br`, { throwIfNoEntry: false })
        if (compressed && compressed.mtimeMs >= stat.mtimeMs) continue
        const source = fs.readFileSync(file)
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        )
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }))
      }
    },
  }
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}
