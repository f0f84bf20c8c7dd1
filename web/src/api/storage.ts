import { z } from 'zod'

import { LOGGED_IN_PROFILE_KEY, PRE_LOGIN_PROFILE_KEY, PRICING_PLAN_KEY, TOKEN_KEY } from './storage-keys.ts'

export { LOGGED_IN_PROFILE_KEY, PRE_LOGIN_PROFILE_KEY, PRICING_PLAN_KEY, TOKEN_KEY }

/** The part of the stored agent profile the shell reads; the rest of the object is kept as stored. */
export const LoggedInProfile = z.looseObject({
  id: z.number(),
  reAgentFirstName: z.string(),
  reAgentLastName: z.string().optional(),
  reAgentBrokerFirmName: z.string().optional(),
})
export type LoggedInProfile = z.infer<typeof LoggedInProfile>

const listeners = new Set<() => void>()

function notify() {
  for (const listener of listeners) listener()
}

function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key)
  } catch {
    // Storage can throw (disabled cookies, private mode quotas); treat it as empty.
    return null
  }
}

export function readToken(): string | null {
  return read(localStorage, TOKEN_KEY) || null
}

let profileCache: { raw: string | null; profile: LoggedInProfile | null } = { raw: null, profile: null }

/** The signed-in agent's profile, or null. Returns the same object until the stored JSON changes. */
export function readLoggedInProfile(): LoggedInProfile | null {
  const raw = read(localStorage, LOGGED_IN_PROFILE_KEY)
  if (raw === profileCache.raw) return profileCache.profile
  let profile: LoggedInProfile | null = null
  if (raw) {
    try {
      const parsed = LoggedInProfile.safeParse(JSON.parse(raw))
      profile = parsed.success ? parsed.data : null
    } catch {
      profile = null
    }
  }
  profileCache = { raw, profile }
  return profile
}

function write(storage: Storage, key: string, value: unknown) {
  try {
    if (value === null || value === undefined) storage.removeItem(key)
    else storage.setItem(key, JSON.stringify(value))
  } catch {
    // A full or disabled storage only costs the cached copy; the server stays the source of truth.
  }
}

function readJson<T>(storage: Storage, key: string, schema: z.ZodType<T>): T | null {
  const raw = read(storage, key)
  if (!raw) return null
  try {
    const parsed = schema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The signed-in user without the token (SPEC §3 pre-login profile, session storage). */
export const PreLoginProfile = z.looseObject({
  id: z.number(),
  porchlightUserEmailId: z.string(),
  userEnabled: z.boolean(),
})
export type PreLoginProfile = z.infer<typeof PreLoginProfile>

interface StoredSession {
  /** Null for a disabled account: it has no session yet. */
  token: string | null
  user: PreLoginProfile
  profile: LoggedInProfile | null
  plan: unknown
}

/**
 * Stores what sign-in or email validation answered: token and agent profile in local storage, the
 * user and the plan utilisation in session storage (SPEC §3 "Client storage").
 */
export function storeSession({ token, user, profile, plan }: StoredSession) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token)
    else localStorage.removeItem(TOKEN_KEY)
  } catch {
    // Without storage the session cannot outlive this page; the API calls will ask to sign in again.
  }
  write(localStorage, LOGGED_IN_PROFILE_KEY, profile)
  write(sessionStorage, PRE_LOGIN_PROFILE_KEY, user)
  write(sessionStorage, PRICING_PLAN_KEY, plan)
  notify()
}

/** Replaces the stored agent profile (agent create/update, session refresh) if it changed. */
export function storeLoggedInProfile(profile: LoggedInProfile | null) {
  const next = profile ? JSON.stringify(profile) : null
  if (read(localStorage, LOGGED_IN_PROFILE_KEY) === next) return
  write(localStorage, LOGGED_IN_PROFILE_KEY, profile)
  notify()
}

/** Replaces the stored user (pre-login profile) and plan utilisation (session refresh). */
export function storeUserAndPlan(user: PreLoginProfile | null, plan: unknown) {
  write(sessionStorage, PRE_LOGIN_PROFILE_KEY, user)
  write(sessionStorage, PRICING_PLAN_KEY, plan)
}

export function readPreLoginProfile(): PreLoginProfile | null {
  return readJson(sessionStorage, PRE_LOGIN_PROFILE_KEY, PreLoginProfile)
}

/** Sign-out and session expiry: removes token, profile, pre-login profile and plan (SPEC §3). */
export function clearSession() {
  try {
    localStorage.removeItem(TOKEN_KEY)
    localStorage.removeItem(LOGGED_IN_PROFILE_KEY)
    sessionStorage.removeItem(PRE_LOGIN_PROFILE_KEY)
    sessionStorage.removeItem(PRICING_PLAN_KEY)
  } finally {
    notify()
  }
}

/**
 * Calls `listener` whenever the session changes, in this tab or (through the storage event) another.
 * Shaped for React's useSyncExternalStore.
 */
export function subscribeSession(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === LOGGED_IN_PROFILE_KEY) listener()
  }
  listeners.add(listener)
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}
