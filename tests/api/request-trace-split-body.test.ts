// A request's trace context (decisions 047, 058) holds across its body's parsing: a phone on a weak
// signal sends the headers and the body in separate packets, and the body's events come from the
// socket, outside the request's context. What the sign-in writes for later (the welcome the worker owes
// a consenting guest) must still carry the request's id.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

/**
 * POSTs `body` with its headers and each half of the body in a write of its own, 50 ms apart; the
 * answer's status, request id and JSON body.
 */
function postInPieces(url: string, path: string, body: string) {
  const { hostname, port } = new URL(url)
  return new Promise<{ status: number; requestId: string; json: { data: { id: number } } }>(
    (resolve, reject) => {
      const socket = net.connect(Number(port), hostname)
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => {
        answer += chunk
      })
      socket.on('end', () => {
        const [head = '', payload = ''] = answer.split('\r\n\r\n')
        resolve({
          status: Number(head.slice(9, 12)),
          requestId: /^x-request-id: (.+)$/im.exec(head)?.[1]?.trim() ?? '',
          json: JSON.parse(payload),
        })
      })
      socket.on('error', reject)
      socket.on('connect', async () => {
        const bytes = Buffer.from(body)
        socket.write(
          `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
            `content-length: ${bytes.length}\r\nconnection: close\r\n\r\n`,
        )
        const half = Math.floor(bytes.length / 2)
        await new Promise((r) => setTimeout(r, 50))
        socket.write(bytes.subarray(0, half))
        await new Promise((r) => setTimeout(r, 50))
        socket.write(bytes.subarray(half))
      })
    },
  )
}

describe("a request's trace context", () => {
  it('reaches what a sign-in writes when its body came in pieces after its headers', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const consenting = guestFields(oh.id, {
      emailConsent: true,
      consentText: 'Email me about homes like this.',
    })
    const answer = await postInPieces(t.url, '/api/public/saveProspect', JSON.stringify(consenting))
    expect(answer.status).toBe(201)
    expect(answer.requestId).not.toBe('')
    // The welcome the worker owes this guest (no worker runs here) keeps the request's trace.
    const owed = await t.db
      .selectFrom('guestWelcome')
      .select('trace')
      .where('attendeeId', '=', answer.json.data.id)
      .executeTakeFirst()
    expect(owed?.trace).toMatchObject({ requestId: answer.requestId })
  })
})
