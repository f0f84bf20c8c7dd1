// The load generator, in a process of its own (`load` in support.ts starts it): run inside the server's
// process, it would take the server's CPU and cap what is measured. Reads its options as JSON from
// argv, prints the summary as one line of JSON.
import http from 'node:http'
import autocannon from 'autocannon'
import { guestVisitor, type LoadOptions, type LoadResult, pct } from './support.ts'

const { guestSignIn, emailConsent, steadyRate, warmup, ...options } = JSON.parse(
  process.argv[2] ?? '{}',
) as LoadOptions

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system

/**
 * A steady rate: one request every 1/rate s, sent on time whether or not earlier ones have answered
 * (an open loop, over up to `connections` kept connections). Each latency runs from the moment its
 * request was due, so a server or generator that falls behind shows it. autocannon's own rate sends each
 * connection's share of a second back to back at the start of the second: a burst, not a steady rate.
 * The first `warmup` seconds go at the same rate, over the same connections, and are not counted: this
 * process and its connections are new, and their first half second was slower on every server.
 */
async function steady(rate: number): Promise<Omit<LoadResult, 'generatorCpuUsPerRequest'>> {
  const url = new URL(options.url as string)
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections ?? 50 })
  const durationMs = Number(options.duration ?? 5) * 1000
  const warmupMs = Number(warmup ?? 0) * 1000
  const interval = 1000 / rate
  const latencies: number[] = []
  let errors = 0
  let non2xx = 0
  const pending = new Set<Promise<void>>()
  const send = (due: number) => {
    const body =
      guestSignIn !== undefined ? JSON.stringify(guestVisitor(guestSignIn, emailConsent)) : undefined
    const done = new Promise<void>((resolve) => {
      const req = http.request(
        url,
        {
          agent,
          method: body === undefined ? 'GET' : 'POST',
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume()
          res.once('end', () => {
            if (due >= counted) {
              if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) {
                latencies.push(performance.now() - due)
              } else non2xx++
            }
            resolve()
          })
        },
      )
      req.once('error', () => {
        errors++
        resolve()
      })
      req.end(body)
    })
    pending.add(done)
    void done.then(() => pending.delete(done))
  }
  const start = performance.now()
  const counted = start + warmupMs
  let sent = 0
  while (true) {
    const now = performance.now()
    if (now - start >= warmupMs + durationMs) break
    // Every request due by now goes now: a late timer does not thin the rate.
    while (start + sent * interval <= now) send(start + sent++ * interval)
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, start + sent * interval - performance.now())),
    )
  }
  await Promise.all(pending)
  agent.destroy()
  return {
    requestsPerSec: Math.round(latencies.length / (durationMs / 1000)),
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    errors,
    non2xx,
    // All sent, the warm-up's too: the server's CPU per request (support.ts) is over all of them.
    requests: sent,
  }
}

const cpuBefore = process.cpuUsage()
const result =
  steadyRate !== undefined
    ? await steady(steadyRate)
    : await autocannon({
        connections: 50,
        duration: 5,
        ...options,
        ...(guestSignIn !== undefined
          ? {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              requests: [
                {
                  setupRequest: (r: autocannon.Request) => ({
                    ...r,
                    body: JSON.stringify(guestVisitor(guestSignIn, emailConsent)),
                  }),
                },
              ],
            }
          : {}),
      }).then((r) => ({
        requestsPerSec: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
        requests: r.requests.total,
      }))
process.stdout.write(
  `${JSON.stringify({
    ...result,
    // The generator's own CPU per answered request: where it nears one core, it is the limit, not the server.
    generatorCpuUsPerRequest: Math.round(
      cpuMicros(process.cpuUsage(cpuBefore)) / Math.max(1, result.requests),
    ),
  })}\n`,
)
