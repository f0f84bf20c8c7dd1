// The server's V8 flags (server/src/bin/node-flags.ts, decision 070) on every command that starts a
// server process: `pnpm start`, the image's API, docker compose's api and worker, the benchmarks. Node
// takes them only there: NODE_OPTIONS refuses them, so an ENV line in the image would stop every process.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')

/** The options a `node …` command line gives before its entry point. */
function nodeOptions(command: readonly string[]): string[] {
  expect(command[0]).toBe('node')
  const entry = command.findIndex((arg, i) => i > 0 && !arg.startsWith('-') && command[i - 1] !== '--import')
  return command.slice(1, entry === -1 ? undefined : entry)
}

describe("the server's V8 flags", () => {
  it('are on pnpm start, pnpm bench, the image and both docker compose services that run the server', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1]
    const services = parse(read('docker-compose.yml')).services as Record<string, { command: string[] }>
    const commands: Record<string, readonly string[]> = {
      'pnpm start': (scripts.start ?? '').split(' '),
      'pnpm bench': (scripts.bench ?? '').split(' '),
      "the image's CMD": JSON.parse(cmd ?? '[]'),
      'docker compose api': services.api?.command ?? [],
      'docker compose worker': services.worker?.command ?? [],
    }
    for (const [where, command] of Object.entries(commands)) {
      const options = nodeOptions(command)
      for (const flag of SERVER_NODE_FLAGS) expect(options, where).toContain(flag)
    }
  })

  it('start Node on its command line; NODE_OPTIONS would stop it for the memory reducer', () => {
    for (const flag of SERVER_NODE_FLAGS) {
      const onCommandLine = spawnSync(process.execPath, [flag, '-e', 'process.exit(0)'], { encoding: 'utf8' })
      expect(onCommandLine.status, onCommandLine.stderr).toBe(0)
    }
    // Why they are given on the command line, all of them alike: NODE_OPTIONS refuses this one.
    expect(SERVER_NODE_FLAGS).toContain('--no-memory-reducer')
    const inOptions = spawnSync(process.execPath, ['-e', 'process.exit(0)'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '--no-memory-reducer' },
    })
    expect(inOptions.status).not.toBe(0)
    expect(inOptions.stderr).toContain('is not allowed in NODE_OPTIONS')
  })

  it('size the young generation of a server process', () => {
    // The flag reaches V8: a process started with them may grow its young generation to 2 × 32 MB.
    const grown = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        '-e',
        `const v8 = require('node:v8'); let keep = []; let most = 0
        for (let i = 0; i < 3e6; i++) {
          keep.push({ i }); if (keep.length > 300000) keep = []
          if (i % 50000 === 0) most = Math.max(most, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)
        }
        console.log(most)`,
      ],
      { encoding: 'utf8' },
    )
    expect(grown.status, grown.stderr).toBe(0)
    expect(Number(grown.stdout.trim())).toBeGreaterThan(32 * 1024 * 1024)
  })
})
