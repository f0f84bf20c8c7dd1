import { randomBytes } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

// The first agent of a firm has nobody in it to verify it: it asks the operator from the app, once a
// day; the operator lists the requests behind ADMIN_TOKEN, verifies with the existing route, and gets a
// mail at OPERATOR_EMAIL (decision 038).

const ADMIN_TOKEN = randomBytes(24).toString('hex')
const OPERATOR_EMAIL = `operator-${randomBytes(3).toString('hex')}@porchlight.example`
let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, ADMIN_TOKEN, OPERATOR_EMAIL } })
  t.startWorker()
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const ask = (token?: string) => t.call('POST', '/reagentmgmt/requestFirmVerification', { token })
const requests = (token?: string) => t.call('GET', '/admin/firmVerificationRequests', { token })

describe('asking the operator to verify a firm membership', () => {
  it('lists and mails the request, refuses a second one the same day, and drops it once verified', async () => {
    const license = `FIRST-${randomBytes(4).toString('hex')}`
    const first = await makePlannedAgent(t.db, { brokerFirmLicense: license, firmStatus: 'pending' })

    const asked = await ask(first.token)
    expect(asked.status).toBe(202)
    expect(asked.body.data.message).toBe(messages.firmVerificationRequested)

    const [mail] = await smtp.waitFor((m) => m.to.includes(OPERATOR_EMAIL) && m.text.includes(license))
    expect(mail?.text).toContain(first.agent.reAgentEmailId)
    expect(mail?.text).toContain('Nobody of this firm is verified yet')
    expect(mail?.text).toContain('/admin/firm-verification')

    // Once a day: the second ask is refused with when to ask again, and no second mail goes.
    const again = await ask(first.token)
    expect(again.status).toBe(429)
    expect(again.body.error).toEqual({ code: 'RATE_LIMITED', message: messages.firmVerificationAskedToday })

    // The operator's list, behind ADMIN_TOKEN only (everyone else: the 404 of no such route).
    expect((await requests()).status).toBe(404)
    expect((await requests(first.token)).status).toBe(404)
    const listed = await requests(ADMIN_TOKEN)
    expect(listed.status).toBe(200)
    const mine = listed.body.data.find((r: { reAgentId: number }) => r.reAgentId === first.agent.id)
    expect(mine).toMatchObject({ reAgentBrokerFirmLicense: license, firmMembershipStatus: 'pending' })

    // Verify from the list: the agent leaves it, and may not ask any more.
    const verified = await t.call('POST', `/admin/verifyFirmMember/${first.agent.id}`, { token: ADMIN_TOKEN })
    expect(verified.body.data.firmMembershipStatus).toBe('verified')
    const after = await requests(ADMIN_TOKEN)
    expect(after.body.data.some((r: { reAgentId: number }) => r.reAgentId === first.agent.id)).toBe(false)
    const late = await ask(first.token)
    expect(late.status).toBe(409)
    expect(late.body.error.message).toBe(messages.firmAlreadyVerified)

    await new Promise((r) => setTimeout(r, 500))
    expect(
      smtp.received.filter((m) => m.to.includes(OPERATOR_EMAIL) && m.text.includes(license)),
    ).toHaveLength(1)
  })

  it('lets an agent ask again a day later, and nobody without a session', async () => {
    const pending = await makePlannedAgent(t.db, { firmStatus: 'pending' })
    expect((await ask()).status).toBe(403)
    expect((await ask(pending.token)).status).toBe(202)
    expect((await ask(pending.token)).status).toBe(429)
    await t.db
      .updateTable('reAgent')
      .set({ firmVerificationRequestedAt: new Date(Date.now() - 86_400_000 - 1000) })
      .where('id', '=', pending.agent.id)
      .execute()
    expect((await ask(pending.token)).status).toBe(202)
  })
})
