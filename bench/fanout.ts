// `pnpm bench fanout`: one guest sign-in heard by 1,000 guest sockets, half on each of two API
// processes, beside the same sign-in's rows and one emit through two bare servers (Fastify + pg +
// socket.io with the same Redis adapter), also each in a process of its own. The sockets and the
// sign-ins are this process's, as a browser's are its own; each delay runs from the sign-in's request to
// a socket hearing it. The two sides take turns, a round each, so neither meets the machine at a
// better moment.
import { performance } from 'node:perf_hooks'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { connectSocket, type TestSocket } from '@porchlight/tests/support/socket.ts'
import { guestVisitor, ownProcess, pct, report, startBenchApp } from './support.ts'

const SOCKETS = 1000
/**
 * Sign-ins counted per side, in rounds of 20; five more per side first warm both. Each sign-in gives
 * 1,000 delays, so with 100 sign-ins a side the p99 was the delay of the one slowest sign-in (a pause
 * of either process, or of this one) and its ratio swung from 0.43 to 1.27; with 200 in shorter turns
 * it rests on two, and five runs gave 1.00–1.06.
 */
const ROUNDS = 10
const PER_ROUND = 20
const WARMING = 5

type Side = { signIn: string; sockets: TestSocket[]; delays: number[] }

async function side(urls: string[], signIn: string, openHouseId: number): Promise<Side> {
  const sockets: TestSocket[] = []
  for (let i = 0; i < SOCKETS; i++)
    sockets.push(await connectSocket(urls[i % urls.length] as string, { openHouseId }))
  return { signIn, sockets, delays: [] }
}

/** One sign-in: when each socket heard it, in ms from the request. */
async function signInHeard(s: Side, openHouseId: number): Promise<number[]> {
  const heard = s.sockets.map(
    (socket) =>
      new Promise<number>((resolve) => socket.once('attendee.added', () => resolve(performance.now()))),
  )
  const sent = performance.now()
  const res = await fetch(s.signIn, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(guestVisitor(openHouseId)),
  })
  if (res.status >= 300) throw new Error(`sign-in answered ${res.status}`)
  return (await Promise.all(heard)).map((at) => at - sent)
}

export async function run() {
  const made = await startBenchApp()
  const listing = await makePlannedAgent(made.db)
  const oh = await scheduleOpenHouse({ call: apiCaller(made.url), db: made.db } as never, listing, {
    publishLevel: 'Hosting Myself',
  })
  const sameAs = JSON.stringify({ databaseUrl: made.databaseUrl, prefix: made.prefix })
  const bareKey = JSON.stringify({ databaseUrl: made.databaseUrl, key: `bare-fanout-${process.pid}` })
  const servers = await Promise.all([
    ownProcess<{ url: string }>('api-process.ts', sameAs),
    ownProcess<{ url: string }>('api-process.ts', sameAs),
    ownProcess<{ url: string }>('bare-fanout-server.ts', bareKey),
    ownProcess<{ url: string }>('bare-fanout-server.ts', bareKey),
  ])
  const [ours1, ours2, bare1, bare2] = servers.map((s) => s.ready.url) as [string, string, string, string]
  const sides: Side[] = []
  try {
    const bare = await side([bare1, bare2], `${bare1}/signin`, oh.id)
    const ours = await side([ours1, ours2], `${ours1}/api/public/saveProspect`, oh.id)
    sides.push(bare, ours)
    for (const s of sides) for (let i = 0; i < WARMING; i++) await signInHeard(s, oh.id)
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of sides) {
        for (let i = 0; i < PER_ROUND; i++) s.delays.push(...(await signInHeard(s, oh.id)))
      }
    }
    const figures = (s: Side) => ({
      p50: pct(s.delays, 50),
      p99: pct(s.delays, 99),
      samples: s.delays.length,
    })
    const [bareFigures, ourFigures] = [figures(bare), figures(ours)]
    report(
      'fanout',
      `Fan-out of a sign-in to ${SOCKETS} guest sockets on two server processes (ms from request)`,
      {
        'bare fastify + pg + socket.io, Redis adapter': bareFigures,
        porchlight: ourFigures,
        ratio: {
          p50: (ourFigures.p50 / bareFigures.p50).toFixed(2),
          p99: (ourFigures.p99 / bareFigures.p99).toFixed(2),
        },
      },
    )
  } finally {
    for (const s of sides) for (const socket of s.sockets) socket.close()
    for (const s of servers) await s.close()
    await made.close()
  }
}
