import { createRootRouteWithContext } from '@tanstack/react-router'
import { AppShell } from '../features/layout/app-shell.tsx'
import { NotFound } from '../features/layout/not-found.tsx'
import type { RouterContext } from '../router-context.ts'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: NotFound,
})
