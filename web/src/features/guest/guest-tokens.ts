// The guest token the sign-in answers is the visitor's proof for its feedback (the server refuses
// feedback without it). It stays on this phone, never in a URL: a link passed on or seen over a
// shoulder carries only ids. Local storage, so a sign-in sent later (pending-sign-ins.ts) or a page
// opened again in a new tab still finds it; a copy in memory keeps this visit working without storage.

const KEY = 'porchlightGuestTokens'
/** Old visits are forgotten: feedback is given on the day, and a shared phone should not pile them up. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000
const KEEP_AT_MOST = 20

interface Kept {
  token: string
  savedAt: number
}

const memory = new Map<string, Kept>()
const keyOf = (openHouseId: number, prospectId: number) => `${openHouseId}:${prospectId}`

function read(): Record<string, Kept> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, Kept>)
      : {}
  } catch {
    return {}
  }
}

/** Keeps the token for the visitor's feedback on this open house. */
export function keepGuestToken(openHouseId: number, prospectId: number, token: string) {
  const now = Date.now()
  const key = keyOf(openHouseId, prospectId)
  memory.set(key, { token, savedAt: now })
  const kept = Object.entries({ ...read(), [key]: { token, savedAt: now } })
    .filter(([, k]) => typeof k?.token === 'string' && now - k.savedAt < KEEP_MS)
    .sort(([, a], [, b]) => b.savedAt - a.savedAt)
    .slice(0, KEEP_AT_MOST)
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)))
  } catch {
    // Without storage the token lives as long as this page, which is enough for feedback right away.
  }
}

/** The token this phone got when the visitor signed in at the open house, if any. */
export function guestTokenFor(openHouseId: number, prospectId: number): string | null {
  const key = keyOf(openHouseId, prospectId)
  const kept = read()[key] ?? memory.get(key)
  return typeof kept?.token === 'string' && Date.now() - kept.savedAt < KEEP_MS ? kept.token : null
}
