// The guest token the sign-in answers is the visitor's proof for its feedback (the server refuses
// feedback without it), for that one visit (decision 029). It stays on this phone, never in a URL: a
// link passed on or seen over a shoulder carries only ids. Local storage, so a sign-in sent later
// (pending-sign-ins.ts) or a page opened again in a new tab still finds it; a copy in memory keeps this
// visit working without storage. It leaves the phone once the feedback is sent; a kiosk keeps none.

const KEY = 'porchlightGuestTokens'
/** Old visits are forgotten: feedback is given on the day, and a shared phone should not pile them up. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000
const KEEP_AT_MOST = 20

interface Kept {
  token: string
  savedAt: number
}

const memory = new Map<string, Kept>()
/** `visitId`: the id the sign-in answered (the guest pages' `prospectId` query). */
const keyOf = (openHouseId: number, visitId: number) => `${openHouseId}:${visitId}`

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
export function keepGuestToken(openHouseId: number, visitId: number, token: string) {
  const now = Date.now()
  const key = keyOf(openHouseId, visitId)
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
export function guestTokenFor(openHouseId: number, visitId: number): string | null {
  const key = keyOf(openHouseId, visitId)
  const kept = read()[key] ?? memory.get(key)
  return typeof kept?.token === 'string' && Date.now() - kept.savedAt < KEEP_MS ? kept.token : null
}

/** The visit's feedback is sent: its token has nothing left to open, and leaves the phone. */
export function forgetGuestToken(openHouseId: number, visitId: number) {
  const key = keyOf(openHouseId, visitId)
  memory.delete(key)
  const kept = read()
  if (!(key in kept)) return
  delete kept[key]
  try {
    if (Object.keys(kept).length === 0) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, JSON.stringify(kept))
  } catch {
    // Storage that cannot be written cannot hold it either.
  }
}

/** A kiosk moves to its next visitor: no token of anyone before stays on the device. */
export function forgetGuestTokens() {
  memory.clear()
  try {
    localStorage.removeItem(KEY)
  } catch {
    // Nothing was stored.
  }
}
