// `pnpm bench [name…]`: runs the named benchmarks (all when none is named); each prints its figure
// next to a baseline measured in the same run.
const benchmarks: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  http: () => import('./http.ts'),
  claim: () => import('./claim.ts'),
  signin: () => import('./signin.ts'),
  fanout: () => import('./fanout.ts'),
  mail: () => import('./mail.ts'),
  web: () => import('./web.ts'),
  prospects: () => import('./prospects.ts'),
  stats: () => import('./stats.ts'),
  sockets: () => import('./sockets.ts'),
  start: () => import('./start.ts'),
}

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !(name in benchmarks))
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}`)
  process.exit(2)
}
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks)) {
  const mod = await benchmarks[name]?.()
  await mod?.run()
}
process.exit(0)

export {}
