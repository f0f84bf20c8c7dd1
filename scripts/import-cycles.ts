// `pnpm lint` step: no import cycles, between files or between folders (a domain, a layer), in any
// package. madge reads the import graph; this groups it by folder and looks for cycles in both.
import path from 'node:path'
import madge from 'madge'

const root = path.resolve(import.meta.dirname, '..')

/**
 * Each package, and the folders that must not import each other in a cycle: on the server each layer
 * and each domain under modules/; on the web each layer (api, ui, live, routes, …) and each domain under
 * features/ (one feature may use another's queries and components, never both ways round).
 */
const packages = [
  { dir: 'server/src', tsConfig: 'tsconfig.json', domains: 'modules' },
  { dir: 'web/src', tsConfig: 'web/tsconfig.json', domains: 'features' },
  { dir: 'shared/src', tsConfig: 'shared/tsconfig.json', domains: null },
]

function folderOf(file: string, domains: string | null): string {
  const parts = file.split('/')
  if (parts.length === 1) return '(root)'
  if (parts[0] === domains && parts.length > 2) return `${parts[0]}/${parts[1]}`
  return parts[0] as string
}

/** Every cycle's members, as strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0
  const stack: string[] = []
  const onStack = new Set<string>()
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const found: string[][] = []
  const visit = (v: string) => {
    indices.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number))
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!indices.has(v)) visit(v)
  return found
}

let failed = false
for (const pkg of packages) {
  const result = await madge(path.join(root, pkg.dir), {
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, pkg.tsConfig),
    excludeRegExp: [/\.d\.ts$/],
  })
  const files = new Map<string, Set<string>>()
  const folders = new Map<string, Set<string>>()
  const edges: Array<[string, string]> = []
  for (const [from, deps] of Object.entries(result.obj())) {
    files.set(from, new Set(deps))
    // The package's barrel (index.ts) re-exports every folder; it is the package's face, not a layer.
    if (from === 'index.ts') continue
    for (const to of deps) {
      const [a, b] = [folderOf(from, pkg.domains), folderOf(to, pkg.domains)]
      if (a === b) continue
      if (!folders.has(a)) folders.set(a, new Set())
      folders.get(a)?.add(b)
      edges.push([from, to])
    }
  }
  for (const component of cycles(files)) {
    failed = true
    console.error(`${pkg.dir}: files import each other in a cycle: ${component.join(', ')}`)
  }
  for (const component of cycles(folders)) {
    failed = true
    const inCycle = new Set(component)
    const through = edges.filter(
      ([a, b]) => inCycle.has(folderOf(a, pkg.domains)) && inCycle.has(folderOf(b, pkg.domains)),
    )
    console.error(`${pkg.dir}: folders import each other in a cycle: ${component.join(' ⇄ ')}`)
    for (const [a, b] of through) console.error(`    ${a} → ${b}`)
  }
}
if (failed) process.exit(1)
console.log('No import cycles between files or folders.')
