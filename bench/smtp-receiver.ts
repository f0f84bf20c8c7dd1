// The receiving mail server for `pnpm bench mail`, in a process of its own so that receiving takes none
// of the measured process's CPU. Like a relay's MTA it accepts and queues: it reads each message to its
// end but does not parse its MIME (tests do that, with tests/support/smtp.ts). Prints "listening <url>",
// then one line per accepted message: its envelope's first recipient. Stops when its input ends.

import type { AddressInfo } from 'node:net'
import readline from 'node:readline'
import { SMTPServer } from 'smtp-server'

const received: string[] = []
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.resume()
    stream.on('end', () => {
      received.push(session.envelope.rcptTo[0]?.address ?? '')
      callback()
    })
  },
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
process.stdout.write(`listening smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}\n`)
let told = 0
const timer = setInterval(() => {
  for (; told < received.length; told++) process.stdout.write(`${received[told]}\n`)
}, 10)
for await (const _ of readline.createInterface({ input: process.stdin })) {
  // Nothing is asked: it receives until the input ends.
}
clearInterval(timer)
await new Promise<void>((resolve) => server.close(() => resolve()))
process.exit(0)
