// The mail server goes away for three minutes while visitors sign in and their thank-you mails queue:
// first nothing listens on its port (connection refused), then it answers every connection with 421.
// Production's retry schedule and probe (no shortened settings): every mail is delivered exactly once
// after the server is back, and a recipient the server refuses for good (550) is failed and visible.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { freePort } from '../support/processes.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const REFUSED = 'no-such-user@example.com'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let t: TestApp
let port: number
let smtp: SmtpSink | undefined

beforeAll(async () => {
  port = await freePort()
  t = await buildTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

describe('an SMTP outage of three minutes under guest sign-ins', () => {
  it('delivers every mail exactly once after the server is back, and fails the one it refuses for good', async () => {
    const agent = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const expected: string[] = []
    async function signIns(count: number, email = () => `visitor-${randomUUID().slice(0, 8)}@example.com`) {
      for (let i = 0; i < count; i++) {
        const address = email()
        const res = await t.call('POST', '/public/saveProspect', {
          body: guestFields(oh.id, {
            prospectEmailId: address,
            emailConsent: true,
            consentText: 'Email me about homes like this one.',
          }),
        })
        expect(res.status).toBe(201)
        if (address !== REFUSED) expected.push(address)
      }
    }
    const refusing = { connect: true }
    const outageStart = Date.now()

    // 0–90 s: nothing listens on the server's port.
    await signIns(30)
    await signIns(1, () => REFUSED)
    await sleep(45_000)
    await signIns(30)
    await sleep(90_000 - (Date.now() - outageStart))

    // 90–180 s: the server is there but answers every connection with 421.
    smtp = await startSmtpSink({
      port,
      server: {
        onConnect: (_s, callback) =>
          refusing.connect
            ? callback(Object.assign(new Error('Service not available, try later'), { responseCode: 421 }))
            : callback(),
        onRcptTo: (address, _s, callback) =>
          address.address === REFUSED
            ? callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }))
            : callback(),
      },
    })
    await signIns(30)
    const ready = await t.call('GET', '/ready')
    expect(ready.body.data.mail.waiting).toBeGreaterThanOrEqual(61)
    expect(ready.body.data.mail.oldestWaitingSeconds).toBeGreaterThanOrEqual(85)
    await sleep(180_000 - (Date.now() - outageStart))
    // Waiting mail did not hammer the refusing server: the new mails' first attempts and a probe now and then.
    const openedWhileRefusing = smtp.connections.opened
    expect(openedWhileRefusing).toBeLessThanOrEqual(30 + 15)

    // Back: every mail goes out, once.
    refusing.connect = false
    const back = Date.now()
    const isVisitor = (m: { to: string[] }) => m.to.some((a) => a.startsWith('visitor-'))
    await smtp.waitFor(isVisitor, expected.length, 90_000)
    const recoveredInMs = Date.now() - back
    await sleep(3000)
    const delivered = smtp.received.flatMap((m) => m.to)
    expect(delivered.filter((a) => a.startsWith('visitor-')).sort()).toEqual([...expected].sort())
    expect(delivered).not.toContain(REFUSED)

    // The refused mail is failed for good with the server's reply, and shown as a failed job.
    const refused = await t.db
      .selectFrom('mail')
      .select(['status', 'smtpReply'])
      .where('toAddress', '=', REFUSED)
      .executeTakeFirstOrThrow()
    expect(refused).toEqual({ status: 'failed', smtpReply: '550 5.1.1 No such user' })
    const failedJobs = await t.app.deps.queues.mail.getFailed()
    expect(failedJobs.map((j) => j.failedReason)).toEqual([expect.stringContaining('550 5.1.1 No such user')])
    const left = await t.db
      .selectFrom('mail')
      .select(sql<string>`count(*)`.as('n'))
      .where('status', 'not in', ['sent', 'failed'])
      .executeTakeFirstOrThrow()
    expect(Number(left.n)).toBe(0)
    expect((await t.call('GET', '/ready')).body.data.mail).toEqual({ waiting: 0, oldestWaitingSeconds: null })
    console.info(
      `mail outage: ${openedWhileRefusing} connections in 90 s of 421; ${expected.length} mails delivered ${recoveredInMs} ms after the server came back`,
    )
  }, 360_000)
})
