// `pnpm test` (after building the web app): the fault tests (tests/faults/) and the rest of the suite as two
// vitest runs side by side, each with workers of its own. A fault test spends minutes waiting on a
// server it broke (an SMTP outage of three minutes): in one run, with two workers for 2 cores, it held
// one of them while it waited, and the rest of the suite had one worker for that time. Its own run
// gives it a worker the suite does not count on. Asked for some files or a project (`pnpm test
// tests/api/x.test.ts`, `--project faults`), it is one vitest run, with the arguments as given.
//
// A JSON report asked for (`--outputFile.json=<file>`) is written by each run beside the file and joined
// into it, so it reads as one run's. A run that fails has the end of its output (its failed tests and
// their errors) printed again once both have ended, so the log's end says what failed.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { letImageUserIn } from '../tests/support/image-user-dirs.ts'

const args = process.argv.slice(2)
/** vitest's own command, run by this Node as `pnpm exec vitest` would. */
const vitest = [
  path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs'),
  'run',
]

/**
 * Files, names or a project asked for. Any argument not a `-flag` counts: a flag's value given as the
 * next argument (`--reporter json`) could as well be a file filter, and one run as given is never wrong.
 */
const narrowed = args.some(
  (arg) => arg === '--project' || arg.startsWith('--project=') || !arg.startsWith('-'),
)

/** Lines of a run's output said again at the end when it fails. */
const TAIL_LINES = 80

interface Ran {
  code: number
  /** The last TAIL_LINES lines it printed, out and err as they came (kept only when asked). */
  tail: string[]
}

/**
 * One vitest run. With `keepTail`, its output passes through this process as it comes, and its last lines
 * are kept: of two runs side by side, the one that fails first has its summary (which tests failed, and
 * why) printed long before the other's end, where a reader of the log's end would never see it.
 */
function run(extra: string[], env: NodeJS.ProcessEnv = process.env, keepTail = false): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, ...extra], {
      stdio: keepTail ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      env,
    })
    const tail: string[] = []
    // Each stream's unfinished line is its own: a line of out is never joined to a chunk of err.
    const partial = { out: '', err: '' }
    const pass = (from: NodeJS.ReadableStream | null, to: NodeJS.WriteStream, stream: 'out' | 'err') =>
      from?.on('data', (chunk: Buffer) => {
        to.write(chunk)
        const lines = (partial[stream] + chunk.toString('utf8')).split('\n')
        partial[stream] = lines.pop() ?? ''
        tail.push(...lines)
        if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES)
      })
    pass(child.stdout, process.stdout, 'out')
    pass(child.stderr, process.stderr, 'err')
    child.once('close', (code, signal) => {
      for (const rest of [partial.out, partial.err]) if (rest) tail.push(rest)
      resolve({ code: code ?? (signal ? 1 : 0), tail: tail.slice(-TAIL_LINES) })
    })
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => child.kill(signal))
    }
  })
}

interface JsonReport {
  success: boolean
  startTime: number
  numTotalTestSuites: number
  numPassedTestSuites: number
  numFailedTestSuites: number
  numPendingTestSuites: number
  numTotalTests: number
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
  testResults: unknown[]
  [other: string]: unknown
}

/** Two runs' JSON reports as one: counts added, files listed together, a success only if both were. */
function joinReports(a: JsonReport, b: JsonReport): JsonReport {
  const sum = (key: keyof JsonReport) => (a[key] as number) + (b[key] as number)
  return {
    ...a,
    success: a.success && b.success,
    startTime: Math.min(a.startTime, b.startTime),
    numTotalTestSuites: sum('numTotalTestSuites'),
    numPassedTestSuites: sum('numPassedTestSuites'),
    numFailedTestSuites: sum('numFailedTestSuites'),
    numPendingTestSuites: sum('numPendingTestSuites'),
    numTotalTests: sum('numTotalTests'),
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    numTodoTests: sum('numTodoTests'),
    testResults: [...a.testResults, ...b.testResults],
  }
}

if (narrowed) {
  process.exitCode = (await run(args)).code
} else {
  const reportFlag = '--outputFile.json='
  const report = args.find((arg) => arg.startsWith(reportFlag))?.slice(reportFlag.length)
  const own = (project: string) =>
    args.map((arg) => (report && arg.startsWith(reportFlag) ? `${reportFlag}${report}.${project}` : arg))
  // Each run's global setup would open the directories above the checkout for the image's user and shut
  // them at its own end, while the other run may still start processes as that user: opened here, once.
  const shutImageUserOut = letImageUserIn()
  const env = { ...process.env, PORCHLIGHT_IMAGE_USER_LET_IN: '1' }
  try {
    const runs = await Promise.all([
      // One worker: the fault tests mostly wait, and two of them breaking servers at once would share
      // the CPU their timing assumes with the suite's two.
      run(['--project', 'faults', ...own('faults')], { ...env, PORCHLIGHT_TEST_WORKERS: '1' }, true),
      run(['--project', 'suite', ...own('suite')], env, true),
    ])
    for (const [project, ran] of [
      ['faults', runs[0]],
      ['suite', runs[1]],
    ] as const) {
      if (ran.code === 0) continue
      console.error(`\n== the ${project} run failed (exit ${ran.code}); the end of its output again:\n`)
      console.error(ran.tail.join('\n'))
    }
    if (report) {
      const reports = ['suite', 'faults'].flatMap((project) => {
        const file = `${report}.${project}`
        // A run that died before writing its report has already failed the whole (its exit code).
        if (!fs.existsSync(file)) return []
        const read = JSON.parse(fs.readFileSync(file, 'utf8')) as JsonReport
        fs.rmSync(file)
        return [read]
      })
      const [first, ...rest] = reports
      if (first) fs.writeFileSync(report, JSON.stringify(rest.reduce(joinReports, first)))
    }
    process.exitCode = runs.find((ran) => ran.code !== 0)?.code ?? 0
  } finally {
    shutImageUserOut()
  }
}
