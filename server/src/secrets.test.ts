import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, requireServers, withLocalSecretsKey } from './config.ts'
import { createSecretBox, keyIdOf, newSecretsKey, parseSecretsKey, SecretUnreadableError } from './secrets.ts'

const key = () => parseSecretsKey(newSecretsKey()) as Buffer

describe('sealed secrets', () => {
  it('opens what it sealed, for the same column only, and never seals a value the same way twice', () => {
    const box = createSecretBox([key()])
    const a = box.seal('whsec_abc', 'webhook_endpoint.secret')
    expect(a).toMatch(new RegExp(`^sk1\\.${box.keyId}\\.`))
    expect(a).not.toContain('abc')
    expect(box.seal('whsec_abc', 'webhook_endpoint.secret')).not.toBe(a)
    expect(box.open(a, 'webhook_endpoint.secret')).toBe('whsec_abc')
    expect(() => box.open(a, 'fub_connector.api_key')).toThrow(SecretUnreadableError)
  })

  it('refuses an altered value', () => {
    const box = createSecretBox([key()])
    const sealed = box.seal('fub_key_12345678', 'fub_connector.api_key')
    const last = sealed.at(-2) === 'A' ? 'B' : 'A'
    const altered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`
    expect(() => box.open(altered, 'fub_connector.api_key')).toThrow(SecretUnreadableError)
  })

  it('opens with any listed key, seals with the first, and answers plain values as they are', () => {
    const [older, newer] = [key(), key()]
    const sealedOld = createSecretBox([older]).seal('token', 'calendar_feed.token')
    const rotated = createSecretBox([newer, older])
    expect(rotated.open(sealedOld, 'calendar_feed.token')).toBe('token')
    expect(rotated.isCurrent(sealedOld)).toBe(false)
    expect(rotated.isCurrent(rotated.seal('token', 'calendar_feed.token'))).toBe(true)
    expect(() => createSecretBox([newer]).open(sealedOld, 'calendar_feed.token')).toThrow(/no key/)
    expect(rotated.open('plain-token', 'calendar_feed.token')).toBe('plain-token')
    expect(() => createSecretBox([]).seal('x', 'calendar_feed.token')).toThrow(/SECRETS_KEY/)
  })

  it('reads a key as base64, base64url or hex, of 32 bytes only', () => {
    const k = key()
    expect(parseSecretsKey(k.toString('base64'))).toEqual(k)
    expect(parseSecretsKey(k.toString('base64url'))).toEqual(k)
    expect(parseSecretsKey(k.toString('hex'))).toEqual(k)
    expect(parseSecretsKey(k.subarray(0, 16).toString('base64'))).toBeNull()
    expect(parseSecretsKey('correct horse battery staple')).toBeNull()
    expect(keyIdOf(k)).toMatch(/^[\da-f]{8}$/)
  })
})

describe('SECRETS_KEY', () => {
  const servers = { DATABASE_URL: 'postgres://db/porchlight', REDIS_URL: 'redis://redis:6379' }

  it('is required by the API and worker processes, and must be 32-byte keys', () => {
    expect(() => requireServers(loadConfig(servers))).toThrow(/SECRETS_KEY is not set/)
    const [a, b] = [newSecretsKey(), newSecretsKey()]
    expect(requireServers(loadConfig({ ...servers, SECRETS_KEY: `${a}, ${b}` })).secrets.keys).toEqual([
      parseSecretsKey(a),
      parseSecretsKey(b),
    ])
    expect(() => loadConfig({ SECRETS_KEY: 'hunter2' })).toThrow(ConfigError)
    expect(() => loadConfig({ SECRETS_KEY: `${a},short` })).toThrow(/SECRETS_KEY/)
  })

  it('is made once on a laptop start and kept in the data folder, readable by its owner only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-secrets-'))
    try {
      const config = loadConfig({})
      config.secrets.keyFile = path.join(dir, 'data', 'secrets-key')
      const first = withLocalSecretsKey(config)
      const second = withLocalSecretsKey(config)
      expect(first.secrets.keys).toHaveLength(1)
      expect(second.secrets.keys).toEqual(first.secrets.keys)
      expect(first.secrets.fromFile).toBe(true)
      expect(fs.statSync(config.secrets.keyFile).mode & 0o077).toBe(0)
      const given = loadConfig({ SECRETS_KEY: newSecretsKey() })
      expect(withLocalSecretsKey(given)).toBe(given)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
