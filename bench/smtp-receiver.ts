// The receiving mail server for `pnpm bench mail`, in a process of its own: parsing a thousand messages
// is the receiver's work, not the sender's, and must not take the measured process's CPU. Prints
// "listening <url>", then one line per accepted message: its first recipient. Stops when its input ends.

import readline from 'node:readline'
import { startSmtpSink } from '@porchlight/tests/support/smtp.ts'

const sink = await startSmtpSink()
process.stdout.write(`listening ${sink.url}\n`)
let told = 0
const timer = setInterval(() => {
  for (; told < sink.received.length; told++) process.stdout.write(`${sink.received[told]?.to[0] ?? ''}\n`)
}, 10)
for await (const _ of readline.createInterface({ input: process.stdin })) {
  // Nothing is asked: it receives until the input ends.
}
clearInterval(timer)
await sink.close()
process.exit(0)
