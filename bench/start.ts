// `pnpm bench start`: how long `pnpm start` takes to answer /api/ready as a laptop user runs it (embedded
// database) and the CPU its process tree used until then, how many lines it prints, and the resident
// memory of its whole process tree once ready.
// Three starts: the first with no web build, no data, no server bundle and tsx's transform cache empty (a fresh clone after
// `pnpm install`: the cache is kept in the temporary folder, a new one here), then two with all three
// left by the first. The data folder (data/) and web/dist are moved aside for the run and put back after.
// Beside each start's time: what the start itself reports (the web build and the new database, side by
// side on a first start; seconds from Node's start to the banner).
// Targets (issues 36, 38): first ≤ 15 s, later ≤ 5 s, process tree ≤ 600 MB.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { bundleEntry } from '../server/start-bundle.ts'
import { processTree as tree } from './support.ts'

const root = path.resolve(import.meta.dirname, '..')

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resident memory of `pid` and every process under it, in MB. */
function treeRssMb(pid: number): number {
  return tree(pid).reduce((sum, [, , rss]) => sum + rss, 0) / 1024
}

/**
 * CPU seconds the tree has used, its finished children's included (a parent counts the children it
 * waited for): on a machine others load, a figure the load changes far less than the time.
 */
function treeCpuSeconds(pid: number): number {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  let sum = 0
  for (const [p] of tree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8')
      // After the command's name: state is the 1st field, utime/stime/cutime/cstime the 12th–15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      sum += fields.slice(11, 15).reduce((a, f) => a + Number(f), 0)
    } catch {
      // gone since ps listed it
    }
  }
  return sum / ticks
}

interface Measured {
  seconds: number
  cpu: number
  rss: number
}

async function startOnce(label: string, tmpdir: string, cwd = root): Promise<Measured> {
  const port = await freePort()
  const started = Date.now()
  const child: ChildProcess = spawn('pnpm', ['start'], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `benchstart${port}`,
      TMPDIR: tmpdir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (c) => {
    output += c
  })
  child.stderr?.on('data', (c) => {
    output += c
  })
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited (${child.exitCode}):\n${output}`)
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready) break
    if (Date.now() - started > 180_000) throw new Error(`pnpm start: not ready in 180 s:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const seconds = (Date.now() - started) / 1000
  const cpu = treeCpuSeconds(child.pid as number)
  // Memory once the start has settled (the worker connected, first passes done).
  await new Promise((r) => setTimeout(r, 2000))
  const rss = treeRssMb(child.pid as number)
  const lines = output.split('\n').filter((l) => l.trim()).length
  const prepared = /done \(([^)]*)\)/.exec(output)?.[1]
  const banner = /Started: +in ([\d.]+ s)/.exec(output)?.[1]
  const own = [prepared, banner && `node to banner ${banner}`].filter(Boolean).join(', ')
  console.log(
    `${label.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s to ready ${cpu.toFixed(1).padStart(5)} s CPU  ${rss.toFixed(0).padStart(5)} MB tree  ${String(lines).padStart(3)} lines${own ? `  (${own})` : ''}`,
  )
  if (process.env.BENCH_START_OUTPUT) console.log(output)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  process.kill(-(child.pid as number), 'SIGTERM')
  await exited
  await new Promise((r) => setTimeout(r, 500))
  // The queues' keys this start left under its own prefix.
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  const keys = await redis.keys(`benchstart${port}:*`)
  if (keys.length > 0) await redis.del(...keys)
  redis.disconnect()
  return { seconds, cpu, rss }
}

function median(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted[Math.floor(sorted.length / 2)] ?? 0
  return `${mid.toFixed(1)} (${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)})`
}

/**
 * BENCH_START_BEFORE=<another checkout>: later starts only, taking turns between that checkout (before)
 * and this one (after), BENCH_START_RUNS each (5): both must have been started once (web built, data
 * made); a first start in each, not counted, makes whatever its sources need.
 */
async function takingTurns(before: string): Promise<void> {
  const runs = Number(process.env.BENCH_START_RUNS ?? 5)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))
  const sides = { before: [] as Measured[], after: [] as Measured[] }
  console.log(`pnpm start, later starts taking turns (load average ${os.loadavg()[0]?.toFixed(1)})`)
  try {
    await startOnce('before, not counted', tmp, before)
    await startOnce('after, not counted', tmp, root)
    for (let i = 0; i < runs; i++) {
      sides.before.push(await startOnce(`before ${i + 1}`, tmp, before))
      sides.after.push(await startOnce(`after ${i + 1}`, tmp, root))
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  for (const [side, measured] of Object.entries(sides)) {
    console.log(
      `${side.padEnd(7)} median (range): ${median(measured.map((m) => m.seconds))} s to ready, ${median(measured.map((m) => m.cpu))} s CPU, ${median(measured.map((m) => m.rss))} MB tree`,
    )
  }
  console.log(`load average now ${os.loadavg()[0]?.toFixed(1)}`)
}

export async function run(): Promise<void> {
  if (process.env.BENCH_START_BEFORE) return takingTurns(path.resolve(process.env.BENCH_START_BEFORE))
  const data = path.join(root, 'data')
  const webDist = path.join(root, 'web', 'dist')
  const aside = `${data}.bench-${Date.now()}`
  const hadData = fs.existsSync(data)
  if (hadData) fs.renameSync(data, aside)
  const webAside = `${webDist}.bench-${Date.now()}`
  const hadWeb = fs.existsSync(webDist)
  if (hadWeb) fs.renameSync(webDist, webAside)
  // A temporary folder of the run's own: tsx's cache starts empty, as on a fresh machine.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))
  // No bundle of the server either, as after a clone (server/start-bundle.ts makes it on the first start).
  fs.rmSync(path.dirname(bundleEntry(root)), { recursive: true, force: true })
  console.log(`pnpm start (embedded database; load average ${os.loadavg()[0]?.toFixed(1)} from the machine)`)
  try {
    await startOnce('first (no web build, no data)', tmp)
    await startOnce('later (web built, data kept)', tmp)
    await startOnce('later again', tmp)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
    fs.rmSync(data, { recursive: true, force: true })
    if (hadData) fs.renameSync(aside, data)
    if (hadWeb) {
      fs.rmSync(webDist, { recursive: true, force: true })
      fs.renameSync(webAside, webDist)
    }
  }
}
