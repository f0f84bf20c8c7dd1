import type { GuestSignInBody } from '@porchlight/shared'
import { ApiError } from '../../api/request.ts'
import { saveGuestProspect } from './guest-api.ts'
import { keepGuestToken } from './guest-tokens.ts'
import { whenIdle } from './when-idle.ts'

// Sign-ins made without a connection wait in local storage and are sent when the phone is back
// online (the 'online' event, a retry timer, or the next page load). Each keeps the clientRequestId
// it was first sent with, so a try that did reach the server before the connection dropped is
// answered with the same visit and never makes a second attendee. The answer's guest token is kept
// here, whichever page is open when it comes, so the visitor can still leave feedback; a kiosk's is not
// (the visitor has moved on, and the next one must not find it).

const KEY = 'porchlightPendingGuestSignIns'
const RETRY_MS = 15_000

export interface PendingSignIn {
  body: GuestSignInBody & { clientRequestId: string; openHouseId: number }
  /** The query of the page it was made on, for the confirm page once sent. */
  rePropertyId: number | null
  from: string | null
  savedAt: string
}

export interface SentSignIn {
  pending: PendingSignIn
  /** The id the sign-in answered: its visit's (the guest pages' `prospectId` query). */
  prospectId: number
}

const atKiosk = (p: PendingSignIn) => p.body.kiosk === true || p.body.kiosk === 'true'

function read(): PendingSignIn[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]')
    return Array.isArray(parsed) ? (parsed as PendingSignIn[]) : []
  } catch {
    return []
  }
}

function write(items: PendingSignIn[]) {
  try {
    if (items.length === 0) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, JSON.stringify(items))
  } catch {
    // Without storage the sign-in lives only as long as this page; the form still shows it saved.
  }
}

export function hasPendingSignIns(openHouseId?: number): boolean {
  return read().some((p) => openHouseId === undefined || p.body.openHouseId === openHouseId)
}

/** Keeps a sign-in to send later (replacing an earlier copy with the same clientRequestId). */
export function keepSignIn(pending: PendingSignIn) {
  write([...read().filter((p) => p.body.clientRequestId !== pending.body.clientRequestId), pending])
}

function drop(clientRequestId: string) {
  write(read().filter((p) => p.body.clientRequestId !== clientRequestId))
}

type Listener = (result: { sent?: SentSignIn; refused?: { pending: PendingSignIn; error: ApiError } }) => void
const listeners = new Set<Listener>()

export function onPendingResult(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

let flushing: Promise<void> | null = null

/** Sends every kept sign-in, oldest first; stops at the first that still cannot get through. */
export function sendPendingSignIns(): Promise<void> {
  flushing ??= (async () => {
    for (const pending of read()) {
      try {
        const { id, guestToken } = await saveGuestProspect(pending.body)
        if (!atKiosk(pending)) keepGuestToken(pending.body.openHouseId, id, guestToken)
        drop(pending.body.clientRequestId)
        for (const listener of listeners) listener({ sent: { pending, prospectId: id } })
      } catch (error) {
        if (error instanceof ApiError && !error.retryable) {
          // The server refused it (a canceled open house, a field it rejects): trying again cannot help.
          drop(pending.body.clientRequestId)
          for (const listener of listeners) listener({ refused: { pending, error } })
          continue
        }
        return
      }
    }
  })().finally(() => {
    flushing = null
  })
  return flushing
}

let started = false

/**
 * Called once by the guest app: sends what the last visit kept, and again whenever it can. The first
 * look waits until the page is drawn and idle: opening local storage is slow on a phone, and the
 * visitor's form comes first.
 */
export function startSendingPendingSignIns() {
  if (started) return
  started = true
  window.addEventListener('online', () => void sendPendingSignIns())
  setInterval(() => {
    if (read().length > 0 && navigator.onLine) void sendPendingSignIns()
  }, RETRY_MS)
  whenIdle(() => void sendPendingSignIns())
}
