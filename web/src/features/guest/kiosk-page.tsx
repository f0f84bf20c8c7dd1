import type { PublicOpenHouse, SignInResult } from '@porchlight/shared'
import { OPEN_HOUSE_ENDED, signInClosed } from '@porchlight/shared/rules/guest-visit'
import { type FormEvent, useEffect, useState } from 'react'
import { ApiError, requestData } from '../../api/request.ts'
import { LOGGED_IN_PROFILE_KEY, TOKEN_KEY } from '../../api/storage-keys.ts'
import { KIOSK_KEY, readKioskStation } from '../../common/kiosk-station.ts'
import { TextInput } from './guest-fields.tsx'
import type { GuestQuery } from './guest-nav.ts'
import { GuestMessage, GuestShell } from './guest-shell.tsx'
import { forgetGuestTokens } from './guest-tokens.ts'
import { SignInForm } from './sign-in-page.tsx'

/** How long the thanks stay before the form is ready for the next visitor. */
const THANKS_MS = 4000

/**
 * Kiosk mode (/public/OpenHouseToday/kiosk): a sign-in station for one open house on the host's tablet
 * or phone. Each sign-in (also one made offline, sent later by the same queue) thanks the visitor and
 * clears the form for the next within seconds. No visitor's guest token stays on the device: a kiosk
 * sign-in keeps none (also one sent later from the offline queue), and every new round clears what a
 * page opened on this device before may have kept, so the next visitor cannot act as the one before.
 * Leaving needs the agent's password; the form never shows the agent's email to the queue.
 */
export function KioskPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Sign In" openHouseId={query.openHouseId}>
      {(oh) =>
        signInClosed(oh.endsAt) ? (
          <GuestMessage tone="info">{OPEN_HOUSE_ENDED}</GuestMessage>
        ) : (
          <Station oh={oh} query={query} />
        )
      }
    </GuestShell>
  )
}

function Station({ oh, query }: { oh: PublicOpenHouse; query: GuestQuery }) {
  const [round, setRound] = useState(0)
  const [thanked, setThanked] = useState<string | null>(null)
  const next = () => {
    setThanked(null)
    setRound((n) => n + 1)
  }

  useEffect(() => {
    if (thanked === null) return
    const timer = setTimeout(() => {
      setThanked(null)
      setRound((n) => n + 1)
    }, THANKS_MS)
    return () => clearTimeout(timer)
  }, [thanked])

  // A fresh form for the next visitor starts at its first field, and with no one's token on the device.
  useEffect(() => {
    forgetGuestTokens()
    if (round > 0) document.querySelector<HTMLInputElement>('input[name="prospectFirstName"]')?.focus()
  }, [round])

  if (thanked !== null) {
    return (
      <div className="guest-message guest-message--success kiosk-thanks" role="status">
        <p>
          <strong>Thank you, {thanked.trim().split(/\s+/)[0]}!</strong> You're signed in. Enjoy the open
          house.
        </p>
        <button type="button" className="guest-button guest-button--secondary" onClick={next}>
          Next visitor
        </button>
      </div>
    )
  }
  return (
    <>
      <SignInForm key={round} oh={oh} query={query} onKioskSignIn={setThanked} />
      <ExitKiosk />
    </>
  )
}

/**
 * The agent's way out: its password signs it in again on this device, then back to its board. The
 * station knows the agent's email and sends it without showing it: a queue of visitors reads the screen
 * (a compliance officer would not have an agent's sign-in name on a public tablet). Only a station that
 * lost its record asks for the email too.
 */
function ExitKiosk() {
  const station = readKioskStation()
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  if (!open) {
    return (
      <button
        type="button"
        className="guest-button guest-button--secondary kiosk-exit"
        onClick={() => setOpen(true)}
      >
        Exit kiosk (agent)
      </button>
    )
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setBusy(true)
    try {
      const result = await requestData<SignInResult>('/signing/authenticate', {
        body: { porchlightUserEmailId: station?.email ?? email.trim(), porchlightUserPass: password },
      })
      const token = result.porchlightUserDTO.porchlightUserToken
      if (!token) throw new ApiError(403, 'NOT_ENABLED', 'This account cannot sign in here.')
      localStorage.setItem(TOKEN_KEY, token)
      localStorage.setItem(LOGGED_IN_PROFILE_KEY, JSON.stringify(result.realEstateAgentDTO))
      localStorage.removeItem(KIOSK_KEY)
      window.location.assign(station?.returnTo ?? '/dashboard')
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status !== 0 ? failure.message : 'Could not reach Porchlight.',
      )
      setBusy(false)
    }
  }

  return (
    <form className="guest-form kiosk-exit-form" onSubmit={submit} aria-label="Exit kiosk">
      <h2>Exit kiosk</h2>
      <p className="guest-muted">The agent who set up this kiosk enters its password to leave it.</p>
      {error && (
        <div className="guest-message guest-message--error" role="alert">
          {error}
        </div>
      )}
      {!station && (
        <TextInput
          label="Agent email"
          name="kioskEmail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={setEmail}
        />
      )}
      <TextInput
        label="Agent password"
        name="kioskPassword"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={setPassword}
      />
      <div className="guest-actions">
        <button type="button" className="guest-button guest-button--secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="guest-button guest-button--primary" disabled={busy}>
          {busy ? 'Checking…' : 'Exit kiosk'}
        </button>
      </div>
    </form>
  )
}
