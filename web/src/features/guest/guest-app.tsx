import { useEffect, useMemo } from 'react'
import { ConfirmPage, FeedbackConfirmPage } from './confirm-page.tsx'
import { FeedbackPage } from './feedback-page.tsx'
import { GUEST_BASE, parseGuestQuery, useGuestLocation } from './guest-nav.ts'
import { GuestShell } from './guest-shell.tsx'
import { KioskPage } from './kiosk-page.tsx'
import { LandingPage } from './landing-page.tsx'
import { startSendingPendingSignIns } from './pending-sign-ins.ts'
import { SignInPage } from './sign-in-page.tsx'

// Kiosk mode is part of the page (about 2 KB): a station opens it offline like any other guest page.
const PAGES = {
  '': LandingPage,
  '/new': SignInPage,
  '/new/confirm': ConfirmPage,
  '/feedback': FeedbackPage,
  '/feedback/confirm': FeedbackConfirmPage,
  '/kiosk': KioskPage,
} as const

/** The public guest pages of SPEC §2, one per URL under /public/OpenHouseToday. */
export function GuestApp() {
  const { pathname, search } = useGuestLocation()
  const query = useMemo(() => parseGuestQuery(search), [search])

  useEffect(() => startSendingPendingSignIns(), [])

  const rest = pathname.startsWith(GUEST_BASE) ? pathname.slice(GUEST_BASE.length).replace(/\/$/, '') : null
  const Page = rest !== null && rest in PAGES ? PAGES[rest as keyof typeof PAGES] : null
  if (!Page) {
    return (
      <GuestShell title="Page Not Found" openHouseId={null}>
        {() => null}
      </GuestShell>
    )
  }
  return <Page query={query} />
}
