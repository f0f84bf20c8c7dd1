import { useQueryClient } from '@tanstack/react-query'
import { Outlet } from '@tanstack/react-router'
import { useEffect } from 'react'
import { agentSocket } from '../../api/socket.ts'
import { AriaRouterProvider } from '../../ui/AriaRouterProvider.tsx'
import { SkipLink } from '../../ui/SkipLink.tsx'
import { useSession } from '../session/use-session.ts'
import { SiteHeader } from './site-header.tsx'
import './app-shell.css'

export function AppShell() {
  const { token } = useSession()
  const queryClient = useQueryClient()

  // Signed-in agents keep one live socket for the whole visit; signing out closes it.
  useEffect(() => {
    if (token) void agentSocket(queryClient)
  }, [token, queryClient])

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
