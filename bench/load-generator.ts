// The load generator, in a process of its own (`load` in support.ts starts it): run inside the server's
// process, it would take the server's CPU and cap what is measured. Reads its options as JSON from
// argv, prints the summary as one line of JSON.
import autocannon from 'autocannon'
import { guestVisitor, type LoadOptions } from './support.ts'

const { guestSignIn, ...options } = JSON.parse(process.argv[2] ?? '{}') as LoadOptions

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system
const cpuBefore = process.cpuUsage()
const result = await autocannon({
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
              body: JSON.stringify(guestVisitor(guestSignIn)),
            }),
          },
        ],
      }
    : {}),
})
process.stdout.write(
  `${JSON.stringify({
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    requests: result.requests.total,
    // The generator's own CPU per answered request: where it nears one core, it is the limit, not the server.
    generatorCpuUsPerRequest: Math.round(
      cpuMicros(process.cpuUsage(cpuBefore)) / Math.max(1, result.requests.total),
    ),
  })}\n`,
)
