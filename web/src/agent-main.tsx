import { QueryClientProvider } from '@tanstack/react-query'
import { createRouter, RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ApiError, onSessionExpired } from './api/client.ts'
import { createQueryClient } from './api/query-client.ts'
import { RouteError, RoutePending } from './app/route-error.tsx'
import { pushSupported, registerAgentWorker } from './features/notifications/push-browser.ts'
import { routeTree } from './routeTree.gen.ts'
import { NotFound } from './ui/not-found.tsx'
import './ui/tokens.css'
import './ui/styles.css'

const queryClient = createQueryClient()

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // TanStack Query decides freshness; the router always asks it.
  defaultPreloadStaleTime: 0,
  defaultNotFoundComponent: NotFound,
  defaultErrorComponent: RouteError,
  defaultPendingComponent: RoutePending,
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

onSessionExpired(() => {
  void router.navigate({ href: '/signin?session=expired' })
})

// The agent app's service worker (notifications, their Claim action; it caches nothing), so the app
// installs; the permission to notify is asked only from the "Enable notifications" step.
// This module may load after the page has (main.tsx imports it when the route is the agent app's).
if (import.meta.env.PROD && pushSupported()) {
  const register = () => void registerAgentWorker().catch(() => {})
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root, {
  // An ApiError reaching an error boundary is shown to the user (e.g. the plans' Retry alert); only
  // unexpected errors belong in the console.
  onCaughtError: (error, info) => {
    if (!(error instanceof ApiError)) console.error(error, info.componentStack)
  },
}).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
)
