// The claim race's agents and their sockets, in a process of their own (`pnpm bench claim` starts it):
// in the server's process 200 HTTP clients and 200 sockets would take the server's CPU. Reads the
// agents as JSON from argv; connects a socket for each; then for each open house id on its input runs
// one race (every agent claims at once) and prints one line of JSON: each claim's status and latency,
// and when each socket heard the winner, in ms from the race's start.

import http from 'node:http'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'
import { connectSocket, type TestSocket } from '@porchlight/tests/support/socket.ts'

const { url, agents } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string
  agents: Array<{ id: number; token: string }>
}
// node:http over kept-alive connections, not fetch: 200 fetch calls cost this process 90–180 ms of CPU
// and reached the server over 24–130 ms, so the race measured this process; 200 http.requests arrive
// within 9–13 ms for 20–31 ms of CPU (measured against a server answering at once).
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
const claim = (path: string, token: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { method: 'PATCH', agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume()
        res.once('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.once('error', reject)
    req.end()
  })
const sockets: TestSocket[] = []
for (const agent of agents) sockets.push(await connectSocket(url, { token: agent.token }))
process.stdout.write('ready\n')

for await (const line of readline.createInterface({ input: process.stdin })) {
  const openHouseId = Number(line)
  const start = performance.now()
  const heard = sockets.map(
    (s) =>
      new Promise<number>((resolve) => {
        // biome-ignore lint/suspicious/noExplicitAny: typed socket events cannot follow a dynamic filter.
        const onClaimed = (e: any) => {
          if (e.openHouseId !== openHouseId) return
          s.off('opportunity.claimed', onClaimed)
          resolve(performance.now() - start)
        }
        s.on('opportunity.claimed', onClaimed)
      }),
  )
  const claims = await Promise.all(
    agents.map(async (a) => {
      const sent = performance.now()
      const status = await claim(`/api/openhousemgmt/claimToHostOpenHouse/${openHouseId}/${a.id}`, a.token)
      const now = performance.now()
      return { status, ms: now - sent, at: now - start }
    }),
  )
  process.stdout.write(`${JSON.stringify({ claims, heard: await Promise.all(heard) })}\n`)
}
for (const s of sockets) s.close()
process.exit(0)
