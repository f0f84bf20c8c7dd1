import { useRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { RouterProvider } from 'react-aria-components'

/**
 * Lets every react-aria control with an `href` (HrefLink, and later menu items and tabs) navigate
 * through TanStack Router instead of reloading the page.
 */
export function AriaRouterProvider({ children }: { children: ReactNode }) {
  const router = useRouter()
  return <RouterProvider navigate={(href) => void router.navigate({ href })}>{children}</RouterProvider>
}
