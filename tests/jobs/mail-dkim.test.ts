// DKIM as a receiving server checks it: the mailer made from the DKIM_* settings signs each message,
// and mailauth's verifier, reading the message as it arrived at a real SMTP server, finds the
// signature good against the public key this test publishes through its own DNS resolver.
import { generateKeyPairSync } from 'node:crypto'
import { ConfigError, loadConfig } from '@porchlight/server/src/config.ts'
import { createMailer, type OutgoingMail } from '@porchlight/server/src/mail/mailer.ts'
import { dkimVerify } from 'mailauth/lib/dkim/verify'
import { afterEach, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close()
})

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
/** The key record a domain publishes at <selector>._domainkey.<domain>. */
const keyRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`

/** DNS as the test publishes it: only the selector's key record exists. */
function resolverFor(records: Record<string, string>) {
  return async (name: string, type: string) => {
    const record = type === 'TXT' ? records[name] : undefined
    if (record === undefined)
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
    // As node:dns answers TXT: each record a list of strings of at most 255 characters.
    return [record.match(/.{1,255}/g) ?? []]
  }
}

async function sink(): Promise<SmtpSink> {
  const started = await startSmtpSink()
  open.push(started)
  return started
}

const settings = (smtpUrl: string, over: Record<string, string> = {}) => ({
  SMTP_URL: smtpUrl,
  MAIL_FROM: 'Porchlight <no-reply@porchlight.example>',
  PUBLIC_URL: 'https://porchlight.example',
  DKIM_DOMAIN: 'porchlight.example',
  DKIM_SELECTOR: 'pl2026',
  // As an .env file or a secret store keeps a PEM key: on one line, its line breaks written as \n.
  DKIM_PRIVATE_KEY: privatePem.trim().replace(/\n/g, '\\n'),
  ...over,
})

const thankYou: OutgoingMail = {
  id: 1,
  messageKey: '7d6f0a57-3c52-4a52-9d36-0a6f5f2a9b11',
  toAddress: 'zoe@example.com',
  fromName: 'José Ñúñez, Realtor®',
  replyTo: 'jose.nunez@agency.example',
  subject: 'Merci d’être venu — 12 Rue de l’Église ✓',
  textBody: `Thank you for visiting!\n.a line that starts with a dot\n${'long line '.repeat(40)}`,
  htmlBody:
    '<!doctype html><html lang="en"><head><title>Thanks</title></head><body><p>Ölçüm</p></body></html>',
  attachments: [{ filename: 'présents.csv', content: 'First name\nZoë\n', contentType: 'text/csv' }],
  headers: {
    'List-Unsubscribe': '<https://porchlight.example/unsubscribe/abc123>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
}

describe('DKIM', () => {
  it('signs every mail with the DKIM_* settings, and the signature verifies as a receiver checks it', async () => {
    const smtp = await sink()
    const config = loadConfig(settings(smtp.url))
    const mailer = createMailer(config)
    open.push(mailer)
    await mailer.deliver(thankYou)
    const [got] = await smtp.waitFor((m) => m.to.includes('zoe@example.com'))
    const raw = got?.rawSource ?? ''
    const resolver = resolverFor({ 'pl2026._domainkey.porchlight.example': keyRecord })

    const verified = await dkimVerify(Buffer.from(raw), { resolver })
    expect(verified.results).toHaveLength(1)
    const [signature] = verified.results
    expect(signature?.status.result).toBe('pass')
    expect(signature?.signingDomain).toBe('porchlight.example')
    expect(signature?.selector).toBe('pl2026')
    expect(signature?.status.aligned).toBe('porchlight.example')
    // What a receiver relies on is signed: who it is from, what it says, and how to unsubscribe.
    const signed = (signature?.signingHeaders?.keys ?? '').toLowerCase().split(/\s*:\s*/)
    expect(signed).toEqual(
      expect.arrayContaining(['from', 'to', 'subject', 'message-id', 'list-unsubscribe']),
    )

    // Changed on the way (a subject rewritten), or checked against another key, it fails.
    const tampered = raw.replace(/^Subject: .*$/m, 'Subject: Your account is locked')
    expect((await dkimVerify(Buffer.from(tampered), { resolver })).results[0]?.status.result).toBe('fail')
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey
    const wrongKey = resolverFor({
      'pl2026._domainkey.porchlight.example': `v=DKIM1; k=rsa; p=${other.export({ type: 'spki', format: 'der' }).toString('base64')}`,
    })
    expect((await dkimVerify(Buffer.from(raw), { resolver: wrongKey })).results[0]?.status.result).toBe(
      'fail',
    )
  })

  it('sends unsigned mail without the settings', async () => {
    const smtp = await sink()
    const { DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY, ...unsigned } = settings(smtp.url)
    const mailer = createMailer(loadConfig(unsigned))
    open.push(mailer)
    await mailer.deliver({ ...thankYou, toAddress: 'plain@example.com' })
    const [got] = await smtp.waitFor((m) => m.to.includes('plain@example.com'))
    expect(got?.raw.headers.has('dkim-signature')).toBe(false)
  })

  it('refuses to start with a partial or malformed DKIM setting, naming it', () => {
    const { DKIM_SELECTOR, ...partial } = settings('smtp://127.0.0.1:2525')
    expect(() => loadConfig(partial)).toThrow(ConfigError)
    expect(() => loadConfig(partial)).toThrow(/DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY/)
    expect(() => loadConfig(settings('smtp://127.0.0.1:2525', { DKIM_PRIVATE_KEY: 'not a key' }))).toThrow(
      /DKIM_PRIVATE_KEY: must be an RSA private key/,
    )
    const small = generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    })
    expect(() =>
      loadConfig(settings('smtp://127.0.0.1:2525', { DKIM_PRIVATE_KEY: small.toString() })),
    ).toThrow(/DKIM_PRIVATE_KEY/)
    expect(() => loadConfig(settings('smtp://127.0.0.1:2525', { DKIM_DOMAIN: 'not a domain' }))).toThrow(
      /DKIM_DOMAIN: must be a domain name/,
    )
  })
})
