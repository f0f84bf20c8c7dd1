// What a mail client shows of the messages the worker sends (composed by nodemailer's MailComposer, over
// the kept connections of its pooled SMTP transport; mailer.ts), read back by a real SMTP server and
// mailparser: names, subject and bodies in any language, attachments, the unsubscribe headers, and
// nothing a typed value could inject.
import { createMailer, type OutgoingMail } from '@porchlight/server/src/mail/mailer.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const config = (smtpUrl: string) => ({
  mail: { smtpUrl, from: 'Porchlight <no-reply@porchlight.local>' },
  publicUrl: 'https://porchlight.example',
})

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close()
})

async function sink(options: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options)
  open.push(started)
  return started
}

function mailer(url: string) {
  const made = createMailer(config(url))
  open.push(made)
  return made
}

let nextId = 1
const mail = (over: Partial<OutgoingMail>): OutgoingMail => ({
  id: nextId++,
  toAddress: 'guest@example.com',
  subject: 'Thanks for visiting',
  textBody: 'Hello',
  htmlBody: '<p>Hello</p>',
  ...over,
})

describe('mail as the recipient reads it', () => {
  it('keeps names, subject, text, HTML and attachments in any language exactly', async () => {
    const smtp = await sink()
    const longLine = `Rooms: ${'kitchen, living room, '.repeat(60)}garden.`
    const text = [
      'Thank you for visiting 12 Rue de l’Église — très belle maison! 🏡',
      longLine,
      '.a line that starts with a dot',
      'From here on, a line that starts with From',
      '',
      'Trailing spaces stay   ',
    ].join('\n')
    const html = `<p>Ölçüm: ${'ç'.repeat(120)}</p>`
    const csv = 'First name,Email\nJosé,jose@example.com\n"Zoë, Jr.",zoe@example.com\n'
    const sent = mail({
      toAddress: 'zoe@example.com',
      fromName: 'José Ñúñez, Realtor®',
      replyTo: 'jose.nunez@agency.example',
      subject: `Merci d’être venu — ${'visite '.repeat(12)}✓`,
      textBody: text,
      htmlBody: html,
      attachments: [{ filename: 'présents.csv', content: csv, contentType: 'text/csv; charset=utf-8' }],
      headers: {
        'List-Unsubscribe': '<https://porchlight.example/unsubscribe/abc123>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    })
    const { messageId } = await mailer(smtp.url).deliver(sent)
    const [got] = await smtp.waitFor((m) => m.to.includes('zoe@example.com'))
    const parsed = got?.raw
    expect(parsed?.from?.value).toEqual([
      { name: 'José Ñúñez, Realtor®', address: 'no-reply@porchlight.local' },
    ])
    expect(parsed?.replyTo?.value).toEqual([{ name: '', address: 'jose.nunez@agency.example' }])
    expect(got?.to).toEqual(['zoe@example.com'])
    expect(got?.subject).toBe(sent.subject)
    expect(got?.text).toBe(text)
    expect(got?.html).toBe(html)
    expect(got?.messageId).toBe(messageId)
    expect(messageId).toBe(`<mail-${sent.id}@porchlight.example>`)
    expect(parsed?.date?.getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(parsed?.attachments.map((a) => [a.filename, a.contentType, a.content.toString('utf8')])).toEqual([
      ['présents.csv', 'text/csv', csv],
    ])
    // RFC 8058's one-click pair, as a mail client reads them from the message's header block.
    const head = (got?.rawSource ?? '').split('\r\n\r\n')[0]?.split('\r\n') ?? []
    expect(head).toContain('List-Unsubscribe: <https://porchlight.example/unsubscribe/abc123>')
    expect(head).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    // The message as sent is 7-bit ASCII in lines within SMTP's limit: any server relays it as is.
    expect(Buffer.from(got?.rawSource ?? '', 'utf8').every((byte) => byte < 0x80)).toBe(true)
    const longest = Math.max(...(got?.rawSource ?? '').split('\r\n').map((l) => l.length))
    expect(longest).toBeLessThanOrEqual(998)
  })

  it('sends a plain mail from the product as Porchlight, with text only when there is no HTML', async () => {
    const smtp = await sink()
    await mailer(smtp.url).deliver(
      mail({ toAddress: 'plain@example.com', htmlBody: null, textBody: 'Code 123456' }),
    )
    const [got] = await smtp.waitFor((m) => m.to.includes('plain@example.com'))
    expect(got?.raw.from?.value).toEqual([{ name: 'Porchlight', address: 'no-reply@porchlight.local' }])
    expect(got?.text.trimEnd()).toBe('Code 123456')
    expect(got?.raw.html).toBe(false)
    expect(got?.raw.attachments).toEqual([])
  })

  it('keeps a line break typed into a name, subject or header from adding a header or a recipient', async () => {
    const smtp = await sink()
    await mailer(smtp.url).deliver(
      mail({
        toAddress: 'target@example.com',
        fromName: 'Eve\r\nBcc: victim@example.com',
        subject: 'Hi\r\nBcc: victim@example.com\r\n\r\nInjected body',
        headers: { 'X-Note': 'a\nCc: victim@example.com' },
      }),
    )
    const [got] = await smtp.waitFor((m) => m.to.includes('target@example.com'))
    expect(got?.raw.bcc).toBeUndefined()
    expect(got?.raw.cc).toBeUndefined()
    expect(got?.subject).toBe('Hi Bcc: victim@example.com  Injected body')
    expect(got?.text).toBe('Hello')
    expect(smtp.received.flatMap((m) => m.to)).toEqual(['target@example.com'])
  })
})

describe('the kept SMTP connections', () => {
  it('sends at most maxConnections mails at once, over connections it keeps', async () => {
    const smtp = await sink({ delayMs: 20 })
    const send = mailer(`${smtp.url}?maxConnections=3`)
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => send.deliver(mail({ toAddress: `burst${i}@example.com` }))),
    )
    expect(new Set(smtp.received.flatMap((m) => m.to)).size).toBe(30)
    expect(smtp.connections.most).toBe(3)
    expect(smtp.connections.opened).toBe(3)
  })

  it('opens a new connection when the server has closed an idle one, and the mail still goes', async () => {
    const smtp = await sink({ server: { socketTimeout: 200 } })
    const send = mailer(smtp.url)
    await send.deliver(mail({ toAddress: 'before@example.com' }))
    await expect.poll(() => smtp.connections.now, { timeout: 5000 }).toBe(0)
    await send.deliver(mail({ toAddress: 'after@example.com' }))
    expect(smtp.received.flatMap((m) => m.to)).toEqual(['before@example.com', 'after@example.com'])
    expect(smtp.connections.opened).toBe(2)
  })

  it('sends again on a new connection when a kept one turns out closed (421), once', async () => {
    // A server that takes one mail per connection, then says it is closing (as a relay past its limit does).
    const smtp = await sink({
      server: {
        onMailFrom(_address, session, callback) {
          if (session.transaction > 1) {
            callback(Object.assign(new Error('Too many mails on this connection'), { responseCode: 421 }))
          } else callback()
        },
      },
    })
    const send = mailer(smtp.url)
    for (const to of ['one@example.com', 'two@example.com', 'three@example.com']) {
      await send.deliver(mail({ toAddress: to }))
    }
    expect(smtp.received.flatMap((m) => m.to)).toEqual([
      'one@example.com',
      'two@example.com',
      'three@example.com',
    ])
    expect(smtp.connections.opened).toBe(3)
  })

  it('logs in with the user and password in SMTP_URL, and a wrong password is an error, not a send', async () => {
    const smtp = await sink({
      server: {
        authOptional: false,
        allowInsecureAuth: true,
        onAuth(auth, _session, callback) {
          if (auth.username === 'porch' && auth.password === 's3cret') callback(null, { user: 'porch' })
          else callback(new Error('Invalid username or password'))
        },
      },
    })
    const url = new URL(smtp.url)
    url.username = 'porch'
    url.password = 's3cret'
    await mailer(url.toString()).deliver(mail({ toAddress: 'authed@example.com' }))
    url.password = 'wrong'
    await expect(mailer(url.toString()).deliver(mail({ toAddress: 'refused@example.com' }))).rejects.toThrow(
      /Invalid username or password/,
    )
    expect(smtp.received.flatMap((m) => m.to)).toEqual(['authed@example.com'])
  })

  it('fails a send, without hanging, when no server answers', async () => {
    const smtp = await sink()
    const url = smtp.url
    await smtp.close()
    await expect(mailer(url).deliver(mail({}))).rejects.toThrow(/ECONNREFUSED|connect/)
  })
})
