import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeValidatedUser } from '../support/factories.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
  t.startWorker()
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

let n = 0
const freshEmail = () => `person${++n}-${Date.now()}@example.com`
const signup = (email: string, pass = 'porch-light-42', verify = pass) =>
  t.call('POST', '/signing/savePorchlightUser', {
    body: { porchlightUserEmailId: email, porchlightUserPass: pass, porchlightUserPassVerify: verify },
  })
const codeFrom = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? ''
const signIn = (email: string, pass: string) =>
  t.call('POST', '/signing/authenticate', {
    body: { porchlightUserEmailId: email, porchlightUserPass: pass },
  })

describe('sign-up and email validation', () => {
  it('creates a disabled user, mails a 6-digit code, and validating it signs the user in', async () => {
    const email = freshEmail()
    const res = await signup(email)
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      porchlightUserEmailId: email,
      userEnabled: false,
    })

    const [mail] = await smtp.waitFor((m) => m.to.includes(email))
    expect(mail?.subject).toMatch(/verification code/i)
    const code = codeFrom(mail?.text ?? '')
    expect(code).toMatch(/^\d{6}$/)

    const wrong = code === '000000' ? '111111' : '000000'
    const bad = await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${wrong}`)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toEqual({ code: 'INVALID_CODE', message: messages.validationCodeNotValid })

    const ok = await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${code}`)
    expect(ok.status).toBe(200)
    expect(ok.body.data.porchlightUserDTO).toEqual({
      id: res.body.data.id,
      porchlightUserEmailId: email,
      porchlightUserToken: expect.stringMatching(/^[a-z2-7]{32}$/),
      userEnabled: true,
    })
    expect(ok.body.data.realEstateAgentDTO).toBeNull()
    expect(ok.body.data.activePlan).toBeNull()

    const again = await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${code}`)
    expect(again.status).toBe(400)
    expect(again.body.error.message).toBe(messages.validationCodeNotValid)
  })

  it('refuses a second account for the same email, whatever its case', async () => {
    const email = freshEmail()
    expect((await signup(email)).status).toBe(201)
    const dup = await signup(email.toUpperCase())
    expect(dup.status).toBe(409)
    expect(dup.body.error).toEqual({ code: 'EMAIL_EXISTS', message: messages.emailIdAlreadyExists })
  })

  it('lists every failing field with its SPEC message', async () => {
    const res = await signup('not-an-email', 'abc', 'abd')
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'porchlightUserEmailId', message: messages.emailIdNotValid },
        { field: 'porchlightUserPassVerify', message: messages.passwordNotMatching },
      ]),
    )
  })

  it('accepts a short password (the length is only a recommendation)', async () => {
    expect((await signup(freshEmail(), 'short')).status).toBe(201)
  })

  it('refuses an expired code and a code after five wrong tries', async () => {
    const expired = freshEmail()
    const a = await signup(expired)
    const [mailA] = await smtp.waitFor((m) => m.to.includes(expired))
    await t.db
      .updateTable('emailCode')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', a.body.data.id)
      .execute()
    expect(
      (await t.call('GET', `/signing/validateEmailId/${a.body.data.id}/${codeFrom(mailA?.text ?? '')}`))
        .status,
    ).toBe(400)

    const tried = freshEmail()
    const b = await signup(tried)
    const [mailB] = await smtp.waitFor((m) => m.to.includes(tried))
    const code = codeFrom(mailB?.text ?? '')
    const wrong = code === '999999' ? '888888' : '999999'
    for (let i = 0; i < 5; i++) await t.call('GET', `/signing/validateEmailId/${b.body.data.id}/${wrong}`)
    expect((await t.call('GET', `/signing/validateEmailId/${b.body.data.id}/${code}`)).status).toBe(400)
  })

  it('judges at most 5 guesses of a code, however many arrive at once', async () => {
    const email = freshEmail()
    const res = await signup(email)
    const [mail] = await smtp.waitFor((m) => m.to.includes(email))
    const code = codeFrom(mail?.text ?? '')
    const wrong = code === '999999' ? '888888' : '999999'
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${wrong}`).then((r) => r.status),
      ),
    )
    expect(statuses.every((s) => s === 400)).toBe(true)
    const row = await t.db
      .selectFrom('emailCode')
      .select('attempts')
      .where('userId', '=', res.body.data.id)
      .executeTakeFirstOrThrow()
    expect(row.attempts).toBe(5)
    expect((await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${code}`)).status).toBe(400)
  })

  it('resends a new code that replaces the old one', async () => {
    const email = freshEmail()
    const res = await signup(email)
    const [first] = await smtp.waitFor((m) => m.to.includes(email))
    expect((await t.call('GET', `/signing/resendVerificationCode/${res.body.data.id}`)).body).toEqual({
      data: { sent: true },
    })
    const mails = await smtp.waitFor((m) => m.to.includes(email), 2)
    const newCode = codeFrom(mails[1]?.text ?? '')
    const oldCode = codeFrom(first?.text ?? '')
    if (oldCode !== newCode) {
      expect((await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${oldCode}`)).status).toBe(
        400,
      )
    }
    expect((await t.call('GET', `/signing/validateEmailId/${res.body.data.id}/${newCode}`)).status).toBe(200)
  })
})

describe('sign-in', () => {
  it('answers the SPEC texts for an unknown email and a wrong password', async () => {
    const unknown = await signIn('nobody-here@example.com', 'whatever-1')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toEqual({ code: 'NO_ACCOUNT', message: messages.noAccountWithEmail })

    const user = await makeValidatedUser(t)
    const wrong = await signIn(user.email, 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toEqual({ code: 'BAD_CREDENTIALS', message: messages.incorrectEmailAndPassword })
  })

  it('tells a not-yet-validated account apart and gives it no session', async () => {
    const email = freshEmail()
    await signup(email)
    const res = await signIn(email, 'porch-light-42')
    expect(res.status).toBe(200)
    expect(res.body.data.porchlightUserDTO).toMatchObject({ userEnabled: false, porchlightUserToken: null })
  })

  it('signs in an enabled user without a profile, and signs out', async () => {
    const user = await makeValidatedUser(t)
    const res = await signIn(user.email.toUpperCase(), user.password)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      realEstateAgentDTO: null,
      activePlan: null,
      mustChangePassword: false,
    })
    const token = res.body.data.porchlightUserDTO.porchlightUserToken
    expect((await t.call('GET', '/signing/session', { token })).body.data.user.porchlightUserEmailId).toBe(
      user.email,
    )

    expect((await t.call('POST', '/signing/signout', { token })).status).toBe(200)
    const after = await t.call('GET', '/signing/session', { token })
    expect(after.status).toBe(403)
    expect(after.body.error.code).toBe('SESSION_EXPIRED')
  })

  it('answers 403 SESSION_EXPIRED once a session has expired', async () => {
    const user = await makeValidatedUser(t)
    await t.db
      .updateTable('session')
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where('userId', '=', user.userId)
      .execute()
    const res = await t.call('GET', '/signing/session', { token: user.token })
    expect(res.status).toBe(403)
    expect(res.body.error).toEqual({ code: 'SESSION_EXPIRED', message: messages.sessionExpired })
  })

  it('stores only a hash of the session token', async () => {
    const user = await makeValidatedUser(t)
    const rows = await t.db.selectFrom('session').select('id').where('userId', '=', user.userId).execute()
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.id).not.toBe(user.token)
      expect(row.id).toMatch(/^[0-9a-f]{64}$/)
    }
  })
})

/** The temporary password of the first reset mail to `email`. */
async function temporaryPasswordMailedTo(email: string): Promise<string> {
  const mails = await smtp.waitFor((m) => m.to.includes(email) && /temporary password/i.test(m.subject))
  return /\n\n([A-Za-z0-9]{12})\n\n/.exec(mails[0]?.text ?? '')?.[1] ?? ''
}

describe('passwords', () => {
  it('mails a single-use temporary password that leaves the old one working', async () => {
    const user = await makeValidatedUser(t)
    const reset = await t.call('POST', '/signing/resetUserPassword', {
      body: { porchlightUserEmailId: user.email },
    })
    expect(reset.body).toEqual({ data: { sent: true } })
    const temp = await temporaryPasswordMailedTo(user.email)
    expect(temp).toHaveLength(12)

    const withTemp = await signIn(user.email, temp)
    expect(withTemp.status).toBe(200)
    expect(withTemp.body.data.mustChangePassword).toBe(true)
    expect((await signIn(user.email, temp)).status).toBe(401)
    expect((await signIn(user.email, user.password)).status).toBe(200)
  })

  it('signs every other session out when a temporary password is used (the account was being recovered)', async () => {
    const user = await makeValidatedUser(t)
    await t.call('POST', '/signing/resetUserPassword', { body: { porchlightUserEmailId: user.email } })
    const temp = await temporaryPasswordMailedTo(user.email)
    const recovered = await signIn(user.email, temp)
    expect(recovered.status).toBe(200)
    expect((await t.call('GET', '/signing/session', { token: user.token })).status).toBe(403)
    const token = recovered.body.data.porchlightUserDTO.porchlightUserToken
    expect((await t.call('GET', '/signing/session', { token })).status).toBe(200)
  })

  it('does not let a temporary password work after an hour', async () => {
    const user = await makeValidatedUser(t)
    await t.call('POST', '/signing/resetUserPassword', { body: { porchlightUserEmailId: user.email } })
    const temp = await temporaryPasswordMailedTo(user.email)
    await t.db
      .updateTable('emailCode')
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where('userId', '=', user.userId)
      .where('purpose', '=', 'temp_password')
      .execute()
    expect((await signIn(user.email, temp)).status).toBe(401)
  })

  it('answers the same for an email with no account, and sends nothing', async () => {
    const email = freshEmail()
    const res = await t.call('POST', '/signing/resetUserPassword', { body: { porchlightUserEmailId: email } })
    expect(res).toEqual({ status: 200, body: { data: { sent: true } } })
    const queued = await t.db.selectFrom('mail').select('id').where('toAddress', '=', email).execute()
    expect(queued).toEqual([])
  })

  it('changes the password and signs out every other session', async () => {
    const user = await makeValidatedUser(t)
    const other = (await signIn(user.email, user.password)).body.data.porchlightUserDTO.porchlightUserToken
    const changed = await t.call('PATCH', '/signing/changeUserPassword', {
      token: user.token,
      body: { id: user.userId, porchlightUserPass: 'brand-new-pass-9', currentPassword: user.password },
    })
    expect(changed.body).toEqual({ data: { changed: true } })
    expect((await t.call('GET', '/signing/session', { token: other })).status).toBe(403)
    expect((await t.call('GET', '/signing/session', { token: user.token })).status).toBe(200)
    expect((await signIn(user.email, user.password)).status).toBe(401)
    expect((await signIn(user.email, 'brand-new-pass-9')).status).toBe(200)
  })

  it('asks for the current password, except once in a session opened with a temporary password', async () => {
    const user = await makeValidatedUser(t)
    const change = (token: string, extra: Record<string, unknown>) =>
      t.call('PATCH', '/signing/changeUserPassword', {
        token,
        body: { id: user.userId, porchlightUserPass: 'taken-over-1', ...extra },
      })
    const fieldsOf = (body: { errors?: Array<{ field: string; message: string }> }) =>
      Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))
    for (const extra of [{}, { currentPassword: 'not-the-password' }]) {
      const refused = await change(user.token, extra)
      expect(refused.status).toBe(422)
      expect(fieldsOf(refused.body)).toEqual({ currentPassword: messages.authenticatingUserDetailsFailed })
    }
    expect((await signIn(user.email, user.password)).status).toBe(200)

    await t.call('POST', '/signing/resetUserPassword', { body: { porchlightUserEmailId: user.email } })
    const temp = await temporaryPasswordMailedTo(user.email)
    const recovered = (await signIn(user.email, temp)).body.data.porchlightUserDTO.porchlightUserToken
    const session = await t.call('GET', '/signing/session', { token: recovered })
    expect(session.body.data.recoverySession).toBe(true)
    expect((await change(recovered, {})).status).toBe(200)
    // Once set, the next change asks for it again.
    expect((await change(recovered, {})).status).toBe(422)
    expect((await change(recovered, { currentPassword: 'taken-over-1' })).status).toBe(200)
  })

  it("refuses to change someone else's password", async () => {
    const a = await makeValidatedUser(t)
    const b = await makeValidatedUser(t)
    const res = await t.call('PATCH', '/signing/changeUserPassword', {
      token: a.token,
      body: { id: b.userId, porchlightUserPass: 'hijacked-pass-1' },
    })
    expect(res.status).toBe(403)
  })
})

describe('user edit', () => {
  const edit = (who: { userId: number; token: string }, body: Record<string, unknown>, id = who.userId) =>
    t.call('PATCH', `/signing/user/${id}`, { token: who.token, body })

  it('changes the sign-in email only with the current password and the code mailed to the new address, and tells the old one', async () => {
    const a = await makeValidatedUser(t)
    const next = freshEmail()

    // A session alone is not enough.
    for (const currentPassword of [undefined, 'not-my-password']) {
      const refused = await edit(a, { porchlightUserEmailId: next, currentPassword })
      expect(refused.status).toBe(422)
      expect(refused.body.errors).toEqual([
        { field: 'currentPassword', message: messages.authenticatingUserDetailsFailed },
      ])
    }

    const asked = await edit(a, { porchlightUserEmailId: next, currentPassword: a.password })
    expect(asked.status).toBe(200)
    expect(asked.body.data).toEqual({
      id: a.userId,
      porchlightUserEmailId: a.email,
      userEnabled: true,
      pendingEmailId: next,
    })
    const [codeMail] = await smtp.waitFor((m) => m.to.includes(next))
    const code = codeFrom(codeMail?.text ?? '')
    // Until the code is entered the old address signs in, the new one does not, and the session says so.
    expect((await signIn(next, a.password)).status).toBe(404)
    expect((await signIn(a.email, a.password)).status).toBe(200)
    const session = await t.call('GET', '/signing/session', { token: a.token })
    expect(session.body.data.user.pendingEmailId).toBe(next)

    const wrong = code === '000000' ? '111111' : '000000'
    const bad = await t.call('POST', '/signing/confirmEmailChange', { token: a.token, body: { code: wrong } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe(messages.validationCodeNotValid)

    const done = await t.call('POST', '/signing/confirmEmailChange', { token: a.token, body: { code } })
    expect(done.status).toBe(200)
    expect(done.body.data).toEqual({
      id: a.userId,
      porchlightUserEmailId: next,
      userEnabled: true,
      pendingEmailId: null,
    })
    const [told] = await smtp.waitFor((m) => m.to.includes(a.email) && /email was changed/.test(m.subject))
    expect(told?.text).toContain(next)
    expect((await signIn(next, a.password)).status).toBe(200)
    expect((await signIn(a.email, a.password)).status).toBe(404)
    // The code worked once.
    const again = await t.call('POST', '/signing/confirmEmailChange', { token: a.token, body: { code } })
    expect(again.status).toBe(400)
  })

  it('judges a change code at most 5 times', async () => {
    const a = await makeValidatedUser(t)
    const next = freshEmail()
    await edit(a, { porchlightUserEmailId: next, currentPassword: a.password })
    const [codeMail] = await smtp.waitFor((m) => m.to.includes(next))
    const code = codeFrom(codeMail?.text ?? '')
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) {
      await t.call('POST', '/signing/confirmEmailChange', { token: a.token, body: { code: wrong } })
    }
    const late = await t.call('POST', '/signing/confirmEmailChange', { token: a.token, body: { code } })
    expect(late.status).toBe(400)
    expect((await signIn(a.email, a.password)).status).toBe(200)
  })

  it("refuses an address in use and another user's account; the same address again drops a waiting change", async () => {
    const a = await makeValidatedUser(t)
    const b = await makeValidatedUser(t)
    const taken = await edit(a, { porchlightUserEmailId: b.email, currentPassword: a.password })
    expect(taken.status).toBe(409)
    expect(taken.body.error.message).toBe(messages.emailIdAlreadyExists)
    const theirs = await edit(
      a,
      { porchlightUserEmailId: freshEmail(), currentPassword: a.password },
      b.userId,
    )
    expect(theirs.status).toBe(403)

    const next = freshEmail()
    await edit(a, { porchlightUserEmailId: next, currentPassword: a.password })
    const [codeMail] = await smtp.waitFor((m) => m.to.includes(next))
    const same = await edit(a, { porchlightUserEmailId: a.email, currentPassword: a.password })
    expect(same.body.data.pendingEmailId).toBeNull()
    const stale = await t.call('POST', '/signing/confirmEmailChange', {
      token: a.token,
      body: { code: codeFrom(codeMail?.text ?? '') },
    })
    expect(stale.status).toBe(400)
  })
})
