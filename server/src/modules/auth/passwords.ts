import { timingSafeEqual } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'

// OWASP's argon2id minimum: 19 MiB memory, 2 iterations, 1 lane.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2)
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}

/** Codes and temporary passwords are short-lived, single-use and attempt-limited: a keyed SHA-256 suffices. */
export function hashSecret(userId: number, secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(`${userId}:${secret}`)))
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function randomFrom(alphabet: string, length: number): string {
  const bytes = new Uint32Array(length)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (n) => alphabet[n % alphabet.length]).join('')
}

/** Six digits, uniformly drawn. */
export function generateCode(): string {
  const n = new Uint32Array(1)
  // Rejection sampling keeps every code equally likely.
  let value: number
  do {
    crypto.getRandomValues(n)
    value = n[0] ?? 0
  } while (value >= 4_294_000_000)
  return String(value % 1_000_000).padStart(6, '0')
}

/** 12 characters without look-alikes (about 70 bits). */
export function generateTemporaryPassword(): string {
  return randomFrom('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789', 12)
}
