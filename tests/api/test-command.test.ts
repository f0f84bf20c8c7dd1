import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

// `pnpm test`'s runner (scripts/test.ts) on a project of its own shape: a suite project and a faults
// project, whose files say when they ran. What CI reads of it: the exit code and the one JSON report.

const root = path.resolve(import.meta.dirname, '../..')
const made: string[] = []

/** A scratch project with the runner, a passing suite file and two fault files (`faultsPass` or not). */
function project(faultsPass: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-test-command-'))
  made.push(dir)
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
  write('package.json', JSON.stringify({ name: 'scratch', private: true, type: 'module' }))
  write('scripts/test.ts', fs.readFileSync(path.join(root, 'scripts/test.ts'), 'utf8'))
  write(
    'tests/support/image-user-dirs.ts',
    fs.readFileSync(path.join(root, 'tests/support/image-user-dirs.ts'), 'utf8'),
  )
  // As vitest.config.ts reads its worker count.
  write(
    'vitest.config.ts',
    `import { defineConfig } from 'vitest/config'
export default defineConfig({ test: { pool: 'forks', maxWorkers: Number(process.env.PORCHLIGHT_TEST_WORKERS) || 2,
  projects: [
    { extends: true, test: { name: 'suite', include: ['tests/**/*.test.ts'], exclude: ['tests/faults/**'] } },
    { extends: true, test: { name: 'faults', include: ['tests/faults/**/*.test.ts'] } },
  ] } })
`,
  )
  write('tests/api/a.test.ts', `import { test } from 'vitest'\ntest('a suite test', () => {})\n`)
  for (const name of ['one', 'two']) {
    write(
      `tests/faults/${name}.test.ts`,
      `import fs from 'node:fs'
import { expect, test } from 'vitest'
test('a fault test', async () => {
  const from = Date.now()
  await new Promise((resolve) => setTimeout(resolve, 400))
  fs.appendFileSync(${JSON.stringify(path.join(dir, 'ran'))}, JSON.stringify({ from, to: Date.now() }) + '\\n')
  expect(${faultsPass}).toBe(true)
})
`,
    )
  }
  return dir
}

function runTests(dir: string, ...args: string[]) {
  // As from a shell: nothing of the vitest run this test is in.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')))
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test.ts', ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  })
  const reportFile = path.join(dir, 'report.json')
  const report = fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')) : undefined
  return { status: run.status, report, output: run.stdout + run.stderr }
}

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

describe('pnpm test runs the fault tests beside the suite', () => {
  it('joins both runs into the one report asked for, and runs the fault files one at a time', () => {
    const dir = project(true)
    const { status, report, output } = runTests(dir, '--outputFile.json=report.json', '--reporter=json')
    expect(status, output).toBe(0)
    expect(report.success).toBe(true)
    expect(report.numTotalTests).toBe(3)
    expect(report.numPassedTests).toBe(3)
    expect(report.testResults).toHaveLength(3)
    // No report of either run is left beside it.
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('report.json'))).toEqual(['report.json'])
    const [first, second] = fs
      .readFileSync(path.join(dir, 'ran'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { from: number; to: number })
      .sort((a, b) => a.from - b.from)
    expect(second?.from).toBeGreaterThanOrEqual(first?.to ?? Number.POSITIVE_INFINITY)
  })

  it('fails the whole when a fault test fails, counts it in the report, and says it again at the end', () => {
    const { status, report, output } = runTests(
      project(false),
      '--outputFile.json=report.json',
      '--reporter=json',
      '--reporter=default',
    )
    expect(status).toBe(1)
    expect(report.success).toBe(false)
    expect(report.numFailedTests).toBe(2)
    expect(report.numPassedTests).toBe(1)
    // What a reader of the log's last lines sees, after the suite's run has ended too.
    const plain = stripVTControlCharacters(output)
    const end = plain.slice(plain.lastIndexOf('== the faults run failed (exit 1)'))
    expect(end.startsWith('== the faults run failed'), plain).toBe(true)
    expect(end).toContain('tests/faults/one.test.ts > a fault test')
    expect(end).toContain('expected false to be true')
    expect(plain).not.toContain('== the suite run failed')
  })

  it('runs the files named in one run', () => {
    const { status, report } = runTests(
      project(false),
      'tests/api/a.test.ts',
      '--outputFile.json=report.json',
      '--reporter=json',
    )
    expect(status).toBe(0)
    expect(report.numTotalTests).toBe(1)
  })
})
