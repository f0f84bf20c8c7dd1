import fs from 'node:fs'
import path from 'node:path'

/**
 * Directories above the checkout that others may not enter (a CI clone in a `mktemp -d`, 0700): the
 * image's user could not reach server/dist (tests run the production processes as that user:
 * porchlight-processes.ts). Given search (x, never read) for the whole run, once, since test files run
 * in parallel (and by scripts/test.ts for its two runs); the returned function puts their modes back at its end.
 */
export function letImageUserIn(): () => void {
  const changed: [string, number][] = []
  for (let dir = path.resolve(import.meta.dirname, '../..'); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode & 0o7777
    if ((mode & 0o001) === 0) {
      fs.chmodSync(dir, mode | 0o001)
      changed.push([dir, mode])
    }
    if (dir === path.dirname(dir)) break
  }
  return () => {
    for (const [dir, mode] of changed) fs.chmodSync(dir, mode)
  }
}
