import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { SigninPage } from '../features/account/signin-page.tsx'

export const Route = createFileRoute('/signin')({
  // SPEC: ?session=expired shows 'Your Session Expired. Please sign in again!'.
  // `redirect`: the page a signed-out agent opened (a mail's link), to go on to after signing in.
  validateSearch: z.object({
    session: z.enum(['expired']).optional().catch(undefined),
    redirect: z.string().max(2000).optional().catch(undefined),
  }),
  component: SigninPage,
})
