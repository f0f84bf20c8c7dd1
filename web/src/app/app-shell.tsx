import { Outlet, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { AriaRouterProvider } from '../ui/AriaRouterProvider.tsx'
import { SkipLink } from '../ui/SkipLink.tsx'
import { SiteHeader } from './site-header.tsx'
import './app-shell.css'

export function AppShell() {
  useFocusMainAfterNavigation()

  return (
    <AriaRouterProvider>
      <div className="app">
        <SkipLink targetId="main">Skip to main content</SkipLink>
        <SiteHeader />
        <main id="main" className="app__main" tabIndex={-1}>
          <Outlet />
        </main>
        <footer className="app__footer">
          <p>© Porchlight · Open houses that bring clients home.</p>
        </footer>
      </div>
    </AriaRouterProvider>
  )
}

/**
 * After an in-app navigation has rendered its page, focus moves to <main> (as a full page load
 * would start at the top), so keyboard and screen-reader users continue on the new page rather than
 * on a button that no longer exists. The first load keeps the browser's own focus.
 */
function useFocusMainAfterNavigation() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname })
  const previous = useRef(pathname)
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== pathname) {
      document.getElementById('main')?.focus({ preventScroll: true })
    }
    previous.current = pathname
  }, [pathname])
}
