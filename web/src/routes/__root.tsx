import { createRootRouteWithContext } from '@tanstack/react-router'
import type { RouterContext } from '../api/router-context.ts'
import { AppShell } from '../app/app-shell.tsx'
import { NotFound } from '../ui/not-found.tsx'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: NotFound,
})
