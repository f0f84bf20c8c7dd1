import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { SigninPage } from '../features/account/signin-page.tsx'

export const Route = createFileRoute('/signin')({
  // SPEC: ?session=expired shows 'Your Session Expired. Please sign in again!'.
  validateSearch: z.object({ session: z.enum(['expired']).optional().catch(undefined) }),
  component: SigninPage,
})
