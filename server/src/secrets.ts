import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

// Secrets kept in the database (Follow Up Boss keys, webhook signing secrets, calendar-feed tokens,
// the unsubscribe links of mail waiting to go out) are sealed by envelope encryption (decision 033):
// each value gets a data key of its own (AES-256-GCM), and that data key is itself sealed with a key
// from SECRETS_KEY. A sealed value names the key that sealed its data key, so keys can rotate: the
// first key of SECRETS_KEY seals, every key listed opens.
//
//   sk1.<key id>.<base64url(iv · tag · sealed data key)>.<base64url(iv · tag · ciphertext)>
//
// The column a value belongs to is bound as associated data: a value copied into another column
// does not open there.

const PREFIX = 'sk1'
const IV_BYTES = 12
const TAG_BYTES = 16

/** A key id: the first 8 hex digits of the key's SHA-256 (names the key, reveals nothing usable). */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8)
}

/** A 32-byte key given as base64, base64url or 64 hex digits; null when it is none of these. */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim()
  if (/^[\da-f]{64}$/i.test(t)) return Buffer.from(t, 'hex')
  if (!/^[\w+/-]{43}=?$/.test(t)) return null
  const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return key.length === 32 ? key : null
}

/** A fresh key in the form SECRETS_KEY takes (base64). */
export function newSecretsKey(): string {
  return randomBytes(32).toString('base64')
}

function gcmSeal(key: Buffer, plain: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body])
}

function gcmOpen(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const iv = sealed.subarray(0, IV_BYTES)
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES)
  const decipher = createDecipheriv('aes-256-gcm', key, iv)
  decipher.setAAD(aad)
  decipher.setAuthTag(tag)
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
}

/** A sealed value could not be opened: its key is not in SECRETS_KEY, or the value was altered. */
export class SecretUnreadableError extends Error {}

export interface SecretBox {
  /** The id of the key that seals (the first of SECRETS_KEY). */
  readonly keyId: string
  /** Seals a value for the named column (e.g. 'fub_connector.api_key'). */
  seal(plain: string, column: string): string
  /** Opens a value sealed for that column; a value stored before sealing existed is answered as is. */
  open(stored: string, column: string): string
  /** Whether the value is sealed with the current key (else it is plain or under an older key). */
  isCurrent(stored: string): boolean
  /** The SQL LIKE pattern of values sealed with the current key. */
  readonly currentPattern: string
}

/** Nothing can be sealed: the process was built without SECRETS_KEY (config.ts requires it to serve). */
export class NoSecretsKeyError extends Error {
  constructor() {
    super('No key to seal secrets with: set SECRETS_KEY (openssl rand -base64 32)')
  }
}

/**
 * Seals with the first key and opens with any. Without keys (a tool or test that built the services
 * without SECRETS_KEY) it is built all the same and fails only when asked to seal or open.
 */
export function createSecretBox(keys: readonly Buffer[]): SecretBox {
  const [current] = keys
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]))
  const keyId = current ? keyIdOf(current) : 'none'
  const aadOf = (column: string, id: string) => Buffer.from(`${PREFIX}.${id}.${column}`)

  return {
    keyId,
    currentPattern: `${PREFIX}.${keyId}.%`,

    seal(plain, column) {
      if (!current) throw new NoSecretsKeyError()
      const dataKey = randomBytes(32)
      const aad = aadOf(column, keyId)
      const sealedKey = gcmSeal(current, dataKey, aad)
      const body = gcmSeal(dataKey, Buffer.from(plain, 'utf8'), aad)
      return `${PREFIX}.${keyId}.${sealedKey.toString('base64url')}.${body.toString('base64url')}`
    },

    open(stored, column) {
      const parts = stored.split('.')
      if (parts[0] !== PREFIX || parts.length !== 4) return stored
      const [, id = '', sealedKey = '', body = ''] = parts
      const key = byId.get(id)
      if (!key) throw new SecretUnreadableError(`no key ${id} in SECRETS_KEY opens ${column}`)
      try {
        const aad = aadOf(column, id)
        const dataKey = gcmOpen(key, Buffer.from(sealedKey, 'base64url'), aad)
        return gcmOpen(dataKey, Buffer.from(body, 'base64url'), aad).toString('utf8')
      } catch {
        throw new SecretUnreadableError(`a sealed ${column} does not open with key ${id}`)
      }
    },

    isCurrent(stored) {
      return stored.startsWith(`${PREFIX}.${keyId}.`)
    },
  }
}
