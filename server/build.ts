// `pnpm build:server`: the production processes as plain JavaScript, so nothing compiles TypeScript at
// run time. dist/{api,worker,migrate,firm-verify}.js bundle our code and the workspace package
// @porchlight/shared; every npm dependency stays an import, installed beside dist/ (`pnpm deploy --prod`).
// The migrations become dist/migrations/<same name>.js, so a database migrated under tsx is up to date.
import fs from 'node:fs'
import path from 'node:path'
import { type BuildOptions, build, type Metafile, type OutputFile } from 'esbuild'
import { migrationSources } from './src/db/migration-files.ts'

const root = import.meta.dirname
const dist = path.join(root, 'dist')
const migrations = path.join(root, '..', 'migrations')
const entryPoints = ['api', 'worker', 'migrate', 'firm-verify'].map((name) =>
  path.join(root, 'src/bin', `${name}.ts`),
)

const { dependencies } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
}
const npmDependencies = Object.keys(dependencies).filter(
  (name) => !dependencies[name]?.startsWith('workspace:'),
)

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  write: false,
  absWorkingDir: root,
  logLevel: 'warning',
} satisfies BuildOptions

/** `@scope/name` or `name` from an import path such as `kysely/migration`. */
function packageName(spec: string): string {
  return spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/')
}

/** A package bundled by accident, or imported without being a server dependency, would break production. */
function checkDependencies(meta: Metafile): string[] {
  const problems: string[] = []
  for (const input of Object.keys(meta.inputs)) {
    const at = input.lastIndexOf('node_modules/')
    if (at === -1) continue
    const name = packageName(input.slice(at + 'node_modules/'.length))
    problems.push(`${name} was bundled in: add it to the server's dependencies`)
  }
  for (const output of Object.values(meta.outputs)) {
    for (const { path: spec, external } of output.imports) {
      if (!external || spec.startsWith('node:')) continue
      if (!npmDependencies.includes(packageName(spec)))
        problems.push(`${spec} is imported but is not one of the server's dependencies`)
    }
  }
  return problems
}

/**
 * Each file is written beside its place and renamed into it, and files of an older build are removed
 * afterwards: a process starting (or a second build running) meanwhile never sees a half-written file.
 */
function writeOutputs(files: OutputFile[]): void {
  for (const file of files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    const temporary = `${file.path}.${process.pid}.tmp`
    fs.writeFileSync(temporary, file.contents)
    fs.renameSync(temporary, file.path)
  }
  const written = new Set(files.map((f) => f.path))
  for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name)
    if (entry.isFile() && !written.has(file) && !file.endsWith('.tmp')) fs.rmSync(file)
  }
}

const [server, compiledMigrations] = await Promise.all([
  // Split: what an entry point imports dynamically (the app after OpenTelemetry, decision 052) is a
  // chunk of its own whose npm imports run only when it loads, not hoisted into the entry.
  build({
    ...common,
    entryPoints,
    outdir: dist,
    external: npmDependencies,
    splitting: true,
    // Beside the entries: code that finds files from its own place (config.ts) sees the same dist/.
    chunkNames: '[name]-[hash]',
  }),
  build({
    ...common,
    entryPoints: migrationSources(migrations),
    outdir: path.join(dist, 'migrations'),
    packages: 'external',
  }),
])
const problems = [...checkDependencies(server.metafile), ...checkDependencies(compiledMigrations.metafile)]
if (problems.length > 0) {
  console.error(`Server build failed:\n  ${[...new Set(problems)].join('\n  ')}`)
  process.exit(1)
}
writeOutputs([...server.outputFiles, ...compiledMigrations.outputFiles])
const count = compiledMigrations.outputFiles.filter((f) => f.path.endsWith('.js')).length
console.log(`Built ${entryPoints.length} entry points and ${count} migrations into server/dist/`)
