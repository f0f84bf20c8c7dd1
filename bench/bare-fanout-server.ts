// One bare server of `pnpm bench fanout`, in a process of its own: Fastify + pg writing a sign-in's rows
// (bare-signin.ts), then one emit to the open house's room through socket.io with the same Redis adapter
// as the app, whose servers sharing `key` hear each other. JSON in argv: databaseUrl, key. Prints its
// address as one line of JSON, then serves until its input closes.
import Fastify from 'fastify'
import { bareSignIn } from './bare-signin.ts'
import { bareSocketServer } from './bare-sockets.ts'
import { barePool, type guestVisitor, serveUntilInputCloses } from './support.ts'

const { databaseUrl, key } = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; key: string }
const pool = barePool(databaseUrl, 20)
const bare = Fastify()
const live = bareSocketServer(bare.server, key, (auth) => [`oh:${Number(auth.openHouseId)}`])
bare.post('/signin', async (req) => {
  const body = req.body as ReturnType<typeof guestVisitor>
  const answer = await bareSignIn(pool, body)
  live.io
    .to(`oh:${body.openHouseId}`)
    .emit('attendee.added', { openHouseId: body.openHouseId, ...answer.data })
  return answer
})
await bare.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}` })}\n`,
)
serveUntilInputCloses(async () => {
  await live.close()
  await bare.close()
  await pool.end()
})
