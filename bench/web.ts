// `pnpm bench web`: Lighthouse (mobile) against the built server for the guest landing and sign-in
// pages, the pages a visitor opens from the QR code at the door, and the agents' landing page. Run
// `pnpm build:web` first. Two networks: Lighthouse's default phone (slow 4G) and a weak signal at the
// door (300 ms round trips, 700 kbit/s); both with a CPU four times slower than this machine's.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { freePort } from '@porchlight/tests/support/processes.ts'
import lighthouse from 'lighthouse'
import { ownProcess } from './support.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** `BENCH_WEB_DIST` measures another build (e.g. one without its compressed copies, for a before/after). */
const WEB_DIST = process.env.BENCH_WEB_DIST ?? path.resolve(import.meta.dirname, '../web/dist')
const RESULTS = path.resolve(import.meta.dirname, 'results')
/** DESIGN.md "Front end" and issue "At the door". */
const BUDGET = { guestScriptBytes: 80 * 1024, interactiveMs: 3000, lcpMs: 2500 }
const WEAK_SIGNAL = {
  rttMs: 300,
  throughputKbps: 700,
  requestLatencyMs: 300 * 3.75,
  downloadThroughputKbps: 700 * 0.9,
  uploadThroughputKbps: 700 * 0.9,
  cpuSlowdownMultiplier: 4,
}

const PROFILES = {
  'slow-4g': {
    label: "Lighthouse's default: 150 ms RTT, 1.6 Mbit/s, 4× CPU slowdown",
    throttling: {
      rttMs: 150,
      throughputKbps: 1638.4,
      requestLatencyMs: 150 * 3.75,
      downloadThroughputKbps: 1638.4 * 0.9,
      uploadThroughputKbps: 750 * 0.9,
      cpuSlowdownMultiplier: 4,
    },
  },
  'weak-signal': { label: 'a weak signal: 300 ms RTT, 700 kbit/s, 4× CPU slowdown', throttling: WEAK_SIGNAL },
}

async function startChromium(): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(
    CHROMIUM,
    ['--headless=new', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`, 'about:blank'],
    { stdio: 'ignore' },
  )
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { port, child }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill()
  throw new Error(`Chromium at ${CHROMIUM} did not open its debugging port`)
}

/** The built server with one open house, in a process of its own (web-server.ts). */
async function startServer(): Promise<{ url: string; query: string; close(): Promise<void> }> {
  const server = await ownProcess<{ url: string; query: string }>('web-server.ts', WEB_DIST)
  return { ...server.ready, close: server.close }
}

/** Runs per page and network; each figure is their median, as the load on this machine varies. */
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3)
/**
 * `BENCH_WEB_PAGES` (e.g. `agent landing`) and `BENCH_WEB_PROFILES` (e.g. `slow-4g`), comma-separated,
 * measure only those pages and networks: each run of Lighthouse is heavy.
 */
const only = (list: string | undefined) => {
  const names = list
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  return (name: string) => !names?.length || names.includes(name)
}
const PAGE_FILTER = only(process.env.BENCH_WEB_PAGES)
const PROFILE_FILTER = only(process.env.BENCH_WEB_PROFILES)

/** The run whose time to interactive is the median, with all its figures. */
function median(runs: PageFigures[]): PageFigures {
  const sorted = [...runs].sort((a, b) => a.interactiveMs - b.interactiveMs)
  return sorted[Math.floor((sorted.length - 1) / 2)] as PageFigures
}

interface PageFigures {
  score: number
  lcpMs: number
  tbtMs: number
  interactiveMs: number
  /** The page itself: the guest pages carry their script and styles in it. */
  documentKB: number
  scriptFilesKB: number
  transferredKB: number
}

async function audit(
  url: string,
  port: number,
  throttling: typeof WEAK_SIGNAL,
  reportFile: string,
): Promise<PageFigures> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    {
      extends: 'lighthouse:default',
      settings: { formFactor: 'mobile', throttlingMethod: 'simulate', throttling },
    },
  )
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
  // The whole report, for where the time went (open it in the Lighthouse viewer).
  fs.writeFileSync(reportFile, JSON.stringify(result.lhr))
  const { audits, categories, runtimeError } = result.lhr
  if (runtimeError) console.error(`${url}: ${runtimeError.code} ${runtimeError.message}`)
  const requests =
    (audits['network-requests']?.details as { items?: Array<Record<string, unknown>> })?.items ?? []
  const bytes = (kind?: string) =>
    requests
      .filter((r) => !kind || r.resourceType === kind)
      .reduce((sum, r) => sum + Number(r.transferSize ?? 0), 0)
  return {
    score: Math.round((categories.performance?.score ?? 0) * 100),
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    interactiveMs: Math.round(audits.interactive?.numericValue ?? 0),
    documentKB: Math.round(bytes('Document') / 102.4) / 10,
    scriptFilesKB: Math.round(bytes('Script') / 102.4) / 10,
    transferredKB: Math.round(bytes() / 102.4) / 10,
  }
}

export async function run() {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    console.error('pnpm bench web needs the built web app: run `pnpm build:web` first.')
    process.exit(2)
  }
  const server = await startServer()
  const chromium = await startChromium()
  try {
    const { url, query } = server
    const allPages = {
      'guest landing (QR)': `${url}/public/OpenHouseToday?${query}`,
      'guest sign-in': `${url}/public/OpenHouseToday/new?${query}`,
      'agent landing': `${url}/`,
    }
    const pages = Object.fromEntries(Object.entries(allPages).filter(([name]) => PAGE_FILTER(name)))
    const figures: Record<string, Record<string, PageFigures>> = {}
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const reports = path.join(RESULTS, `web-${stamp}`)
    fs.mkdirSync(reports, { recursive: true })
    // The browser's first load of a page pays for starting up (compiling, caches); it is not measured.
    await audit(
      Object.values(pages)[0] ?? allPages['guest sign-in'],
      chromium.port,
      PROFILES['slow-4g'].throttling,
      path.join(reports, 'warm-up.json'),
    )
    for (const [profile, { label, throttling }] of Object.entries(PROFILES)) {
      if (!PROFILE_FILTER(profile)) continue
      const rows: Record<string, PageFigures> = {}
      for (const [name, url] of Object.entries(pages)) {
        const runs: PageFigures[] = []
        for (let run = 1; run <= RUNS; run++) {
          const file = `${profile}-${name.replace(/\W+/g, '-').replace(/-$/, '')}-${run}.json`
          runs.push(await audit(url, chromium.port, throttling, path.join(reports, file)))
        }
        rows[name] = median(runs)
      }
      figures[profile] = rows
      console.log(`\nWeb pages, Lighthouse mobile, ${label} (simulated), the median of ${RUNS} runs`)
      console.table(rows)
    }
    console.log(
      `Budgets: guest JS ≤ ${BUDGET.guestScriptBytes / 1024} KB transferred (a guest page carries its script: documentKB); guest interactive ≤ ${BUDGET.interactiveMs} ms on a weak signal; LCP ≤ ${BUDGET.lcpMs} ms.`,
    )
    const file = path.join(RESULTS, `web-${stamp}.json`)
    fs.writeFileSync(file, `${JSON.stringify({ budget: BUDGET, profiles: PROFILES, figures }, null, 2)}\n`)
    console.log(
      `Written to ${path.relative(process.cwd(), file)}, the full reports to ${path.relative(process.cwd(), reports)}/`,
    )
  } finally {
    chromium.child.kill()
    await server.close()
  }
}
