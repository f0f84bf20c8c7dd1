// `pnpm bench sockets`: the server's heap per idle signed-in agent socket, beside a bare socket.io server
// with the same Redis adapter whose sockets join the same rooms. The sockets are opened by a process of
// their own (socket-clients.ts); each server's heap is measured after a full collection, before and after
// they connect: five rounds each, taking turns after one that warms both, reported as medians with their
// ranges (one round's noise exceeded the difference it measured).
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { rooms } from '@porchlight/shared'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { bareSocketServer } from './bare-sockets.ts'
import { report, startBenchApp } from './support.ts'

const AGENTS = 50
const PER_AGENT = 20
const ROUNDS = 5

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed
}

/** Heap growth of this process, per socket, while `auths` × PER_AGENT idle sockets are connected to `url`. */
async function perSocket(url: string, auths: Array<{ token: string }>): Promise<number> {
  const before = heapUsed()
  const clients = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'socket-clients.ts'),
      JSON.stringify({ url, auths, perAuth: PER_AGENT }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  if (!clients.stdout || !clients.stdin) throw new Error('the clients have no input or output')
  const lines = readline.createInterface({ input: clients.stdout })[Symbol.asyncIterator]()
  const { value } = await lines.next()
  if (value !== 'ready') throw new Error('the clients did not connect')
  await new Promise((r) => setTimeout(r, 500))
  const after = heapUsed()
  clients.stdin.end()
  await new Promise((r) => clients.once('exit', r))
  return (after - before) / (auths.length * PER_AGENT)
}

/** socket.io with the Redis adapter; each socket joins an agent's rooms, as the app's sockets do. */
async function bareServer() {
  const live = bareSocketServer(http.createServer(), `bare-${process.pid}`, (auth) => {
    const id = Number(auth.token)
    return [rooms.agent(id), rooms.marketAll, rooms.marketFirm('FIRM-001')]
  })
  await new Promise<void>((resolve) => live.server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(live.server.address() as AddressInfo).port}`, close: live.close }
}

export async function run() {
  const bench = await startBenchApp()
  const bare = await bareServer()
  try {
    const agents = []
    for (let i = 0; i < AGENTS; i++) agents.push(await makePlannedAgent(bench.db))
    const bareAuths = agents.map((a) => ({ token: String(a.agent.id) }))
    const appAuths = agents.map((a) => ({ token: a.token }))
    // A first round on each warms what is made once (compiled code, pools, caches). One round's heap
    // growth moves by more than the difference it measures (a collection, a buffer kept), so each side
    // is measured ROUNDS times, taking turns, and the median is reported with the range beside it.
    await perSocket(bare.url, bareAuths)
    await perSocket(bench.url, appAuths)
    const bareBytes: number[] = []
    const appBytes: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      bareBytes.push(await perSocket(bare.url, bareAuths))
      appBytes.push(await perSocket(bench.url, appAuths))
    }
    const kb = (bytes: number) => Math.round(bytes / 102.4) / 10
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
    const side = (xs: number[]) => ({
      medianKilobytes: kb(median(xs)),
      range: `${kb(Math.min(...xs))}–${kb(Math.max(...xs))}`,
    })
    // The ranges overlapping means the rounds cannot tell the two apart: the ratio is then not a figure.
    const apart =
      Math.min(...appBytes) > Math.max(...bareBytes) || Math.max(...appBytes) < Math.min(...bareBytes)
    report(
      'sockets',
      `Heap per idle signed-in agent socket (${AGENTS * PER_AGENT} sockets, ${ROUNDS} rounds each)`,
      {
        'bare socket.io + Redis adapter': side(bareBytes),
        porchlight: side(appBytes),
        'ratio of medians': {
          medianKilobytes: (median(appBytes) / median(bareBytes)).toFixed(2),
          range: apart ? 'ranges apart' : 'ranges overlap: within the noise',
        },
      },
    )
  } finally {
    await bare.close()
    await bench.close()
  }
}
