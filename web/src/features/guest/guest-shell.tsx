import type { PublicOpenHouse } from '@porchlight/shared'
import { type ReactNode, useEffect, useMemo, useRef } from 'react'
import { NETWORK_MESSAGE, UNEXPECTED_ERROR } from '../../api/request.ts'
import { hasNavigated } from './guest-nav.ts'
import { waitUntilOnShow } from './guest-socket.ts'
import { OFFLINE_SIGN_IN_NOTE, offlineStandIn } from './offline-stand-in.ts'
import { usePublicOpenHouse } from './use-public-open-house.ts'

/**
 * The public pages answer 404 alike for an open house that does not exist and for one that is neither
 * published nor hosted yet; to a visitor at the door both mean the same.
 */
export const NOT_OPEN_FOR_SIGN_IN =
  'This open house is not open for sign-in. Please check with the agent at the door, or scan the QR code again.'

interface GuestShellProps {
  /** The page's <h1>; also the document title. */
  title: string
  openHouseId: number | null
  children: (oh: PublicOpenHouse) => ReactNode
  /**
   * A page that takes a sign-in: with no connection and the open house never loaded on this phone, it
   * opens for a stand-in (offline-stand-in.ts) instead of saying the network failed.
   */
  opensOffline?: boolean
}

/**
 * Every guest page: the brand and the property address at the top (DESIGN.md "Look and feel"), then
 * the page once its open house has loaded in public mode, or what went wrong and what to do next.
 * Focus moves to the heading after an in-app navigation, as a page load would start at the top.
 */
export function GuestShell({ title, openHouseId, children, opensOffline = false }: GuestShellProps) {
  const [loaded, retry] = usePublicOpenHouse(openHouseId)
  const standIn = useMemo(() => (openHouseId ? offlineStandIn(openHouseId) : null), [openHouseId])
  const headingRef = useRef<HTMLHeadingElement>(null)
  const notOnShow = loaded?.state === 'error' && loaded.error.status === 404

  // Opened before the open house is on show (the sign scanned early): the page comes alive as soon as
  // it is published or gets a host, without a reload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: retry is a new function each render
  useEffect(() => {
    if (openHouseId && notOnShow) return waitUntilOnShow(openHouseId, retry)
  }, [openHouseId, notOnShow])

  // What could not be loaded without a signal is loaded as soon as there is one.
  const offline = loaded?.state === 'error' && loaded.error.status === 0
  useEffect(() => {
    if (!offline) return
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [offline, retry])

  useEffect(() => {
    document.title = `${title} · Porchlight`
    if (hasNavigated()) headingRef.current?.focus({ preventScroll: true })
  }, [title])

  let body: ReactNode
  if (!openHouseId) {
    body = (
      <GuestMessage tone="error">
        This link is missing its open house. Please scan the QR code again.
      </GuestMessage>
    )
  } else if (!loaded || loaded.state === 'loading') {
    body = (
      <p className="guest-loading" role="status">
        <span className="guest-spinner" aria-hidden="true" /> Loading the open house…
      </p>
    )
  } else if (loaded.state === 'error' && loaded.error.status === 0 && opensOffline && standIn) {
    body = (
      <>
        <GuestMessage tone="info">{OFFLINE_SIGN_IN_NOTE}</GuestMessage>
        {children(standIn)}
      </>
    )
  } else if (loaded.state === 'error') {
    body =
      loaded.error.status === 404 ? (
        <GuestMessage tone="error">{NOT_OPEN_FOR_SIGN_IN}</GuestMessage>
      ) : (
        <GuestMessage tone="error">
          {loaded.error.status === 0 ? NETWORK_MESSAGE : UNEXPECTED_ERROR}
          <button type="button" className="guest-button guest-button--secondary" onClick={retry}>
            Try again
          </button>
        </GuestMessage>
      )
  } else if (loaded.data.openHouseCanceledFlag) {
    body = (
      <GuestMessage tone="error">This open house was canceled. Thank you for your interest.</GuestMessage>
    )
  } else {
    body = children(loaded.data)
  }

  const address = loaded?.state === 'ready' ? loaded.data.reProperty.completePropertyAddress : null
  return (
    <div className="guest">
      <header className="guest__header">
        <p className="guest__brand">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M3 11 12 4l9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1Z" fill="currentColor" />
          </svg>
          Porchlight
        </p>
        {address && <p className="guest__address">{address}</p>}
      </header>
      <main className="guest__main" id="main">
        <h1 className="guest__title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {body}
      </main>
    </div>
  )
}

export function GuestMessage({
  tone,
  children,
}: {
  tone: 'error' | 'info' | 'success'
  children: ReactNode
}) {
  return (
    <div className={`guest-message guest-message--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}
