// Idle sockets for `pnpm bench sockets`, in a process of their own so that their memory is not counted
// as the server's: reads `{url, auths, perAuth}` from argv, connects `perAuth` sockets for each auth,
// prints "ready", and closes them all when its input ends.

import readline from 'node:readline'
import { connectSocket, type TestSocket } from '@porchlight/tests/support/socket.ts'

const { url, auths, perAuth } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string
  auths: Array<{ token: string }>
  perAuth: number
}
const sockets: TestSocket[] = []
for (const auth of auths) {
  for (let i = 0; i < perAuth; i++) sockets.push(await connectSocket(url, auth))
}
process.stdout.write('ready\n')
for await (const _ of readline.createInterface({ input: process.stdin })) {
  // Nothing is asked: the sockets stay idle until the input ends.
}
for (const s of sockets) s.close()
process.exit(0)
