// The API and socket process of the production shape (docker compose runs workers apart).
import { buildApp } from '../compose/app.ts'
import { loadConfig } from '../config.ts'
import { onShutdown } from '../shutdown.ts'

const config = loadConfig()
const app = await buildApp(config)
await app.listen({ port: config.port, host: config.host })
app.deps.outbox.start(1000)
onShutdown(app.log, () => app.close())
