// One API process of `pnpm bench fanout`, on a database and Redis prefix another process made (JSON in
// argv: databaseUrl, prefix). Prints its address as one line of JSON, then serves until its input closes.
import { serveUntilInputCloses, startBenchApp } from './support.ts'

const sameAs = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; prefix: string }
const app = await startBenchApp({}, sameAs)
process.stdout.write(`${JSON.stringify({ url: app.url })}\n`)
serveUntilInputCloses(app.close)
