import { createECDH } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, withLocalVapidKeys } from './config.ts'

function pair() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const priv = ecdh.getPrivateKey()
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - priv.length), priv]).toString('base64url'),
  }
}

describe('Web Push settings', () => {
  it('stop the start naming a malformed key, a half pair or a subject push services cannot use', () => {
    const keys = pair()
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'not-a-key', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY/,
    )
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(ConfigError)
    expect(() => loadConfig({ ...pairEnv(keys), VAPID_SUBJECT: 'ops at example' })).toThrow(/VAPID_SUBJECT/)
    expect(() => loadConfig({ PUSH_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/PUSH_ALLOW_PRIVATE_TARGETS/)
  })

  it('take a pair and a subject, or name the sender as the subject', () => {
    const keys = pair()
    expect(loadConfig({ ...pairEnv(keys), VAPID_SUBJECT: 'mailto:ops@example.com' }).push.vapid).toEqual({
      ...keys,
      subject: 'mailto:ops@example.com',
    })
    expect(loadConfig(pairEnv(keys)).push.vapid?.subject).toBe('mailto:no-reply@porchlight.local')
    expect(loadConfig({}).push.vapid).toBeUndefined()
  })

  it('without keys, pnpm start keeps one pair across restarts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vapid-'))
    try {
      const base = loadConfig({})
      const config = { ...base, push: { ...base.push, vapidFile: path.join(dir, 'vapid-keys.json') } }
      const first = withLocalVapidKeys(config, pair)
      const second = withLocalVapidKeys(config, pair)
      expect(first.push.fromFile).toBe(true)
      expect(second.push.vapid).toEqual(first.push.vapid)
      expect(fs.statSync(config.push.vapidFile).mode & 0o777).toBe(0o600)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

function pairEnv(keys: { publicKey: string; privateKey: string }) {
  return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }
}

describe('settings written but left blank, or not what they should be', () => {
  it('a blank setting counts as unset: its default applies', () => {
    const config = loadConfig({ SMTP_URL: '', MAIL_FROM: '  ', PORT: '', REDIS_URL: '' })
    expect(config.mail.smtpUrl).toBeUndefined()
    expect(config.mail.from).toBe('Porchlight <no-reply@porchlight.local>')
    expect(config.port).toBe(3000)
  })

  it('a value that is no address is named in the settings error, not thrown as a stack', () => {
    for (const [name, value] of [
      ['SMTP_URL', 'mail.example.com'],
      ['DATABASE_URL', 'not a url'],
      ['PUBLIC_URL', '://'],
      ['SMTP_URL', 'http://mail.example.com'],
    ]) {
      const read = () => loadConfig({ [name as string]: value })
      expect(read).toThrow(ConfigError)
      expect(read).toThrow(new RegExp(`^Invalid settings:\\n  ${name}: `))
    }
  })
})
