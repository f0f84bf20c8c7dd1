// The server `pnpm bench web` measures, in a process of its own: in Lighthouse's process it would wait
// for Lighthouse's own work (reading the browser's trace as the page loads), and the page's requests
// would be timed as slow as that. Prints one line of JSON (the app's address and a guest page's query
// for an open house it made), then serves until its input closes.
import path from 'node:path'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { serveUntilInputCloses, startBenchApp } from './support.ts'

const webDist = process.argv[2] && path.resolve(process.argv[2])
if (!webDist) throw new Error('usage: web-server.ts <built web app folder>')
const bench = await startBenchApp({}, undefined, webDist)
const call = apiCaller(bench.url)
const host = await makePlannedAgent(bench.db)
const oh = await scheduleOpenHouse({ call }, host, { publishLevel: 'Hosting Myself' })
const query = `openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`
process.stdout.write(`${JSON.stringify({ url: bench.url, query })}\n`)
// The parent closes our input when it is done (or dies): then the app and its database go.
serveUntilInputCloses(bench.close)
