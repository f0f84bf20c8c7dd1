import { z } from 'zod'

/** SPEC §3 "Client storage": the four keys the web keeps between page loads. */
export const TOKEN_KEY = 'porchlightUserToken' // localStorage
export const LOGGED_IN_PROFILE_KEY = 'porchlightLoggedInProfile' // localStorage, JSON
export const PRE_LOGIN_PROFILE_KEY = 'porchlightPreLoginProfile' // sessionStorage
export const PRICING_PLAN_KEY = 'porchlightPricingPlan' // sessionStorage

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

/** Stores a new session (sign-in, email validation) and tells every subscriber. */
export function storeSession(token: string, profile: LoggedInProfile | null) {
  localStorage.setItem(TOKEN_KEY, token)
  if (profile) localStorage.setItem(LOGGED_IN_PROFILE_KEY, JSON.stringify(profile))
  else localStorage.removeItem(LOGGED_IN_PROFILE_KEY)
  notify()
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
