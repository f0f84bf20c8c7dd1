import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { readToken } from '../api/storage.ts'
import { SigninPage } from '../features/account/signin-page.tsx'
import { ownPath } from '../features/session/sign-in.ts'

export const Route = createFileRoute('/signin')({
  // SPEC: ?session=expired shows 'Your Session Expired. Please sign in again!'.
  // `redirect`: the page a signed-out agent opened (a mail's link), to go on to after signing in.
  validateSearch: z.object({
    session: z.enum(['expired']).optional().catch(undefined),
    redirect: z.string().max(2000).optional().catch(undefined),
  }),
  // Signed in already: on to the dashboard (or the page asked for), not the form again. A token the
  // server no longer honours comes back here with session=expired, and the form shows.
  beforeLoad: ({ search }) => {
    if (readToken() && search.session !== 'expired') {
      throw redirect({ href: ownPath(search.redirect) ?? '/dashboard', replace: true })
    }
  },
  component: SigninPage,
})
