// Writes src/routeTree.gen.ts from src/routes/ as the build's router plugin does, so `pnpm typecheck`
// works on a fresh clone before any build (the file is generated, and not kept in git).
import path from 'node:path'
import { Generator, getConfig } from '@tanstack/router-generator'

const root = path.resolve(import.meta.dirname, '..')
const config = getConfig({ target: 'react' }, root)
await new Generator({ config, root }).run()
