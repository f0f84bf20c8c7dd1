import { createRootRouteWithContext } from '@tanstack/react-router'
import type { RouterContext } from '../api/router-context.ts'
import { AppShell } from '../features/layout/app-shell.tsx'
import { NotFound } from '../features/layout/not-found.tsx'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: NotFound,
})
