import { createFileRoute, redirect } from '@tanstack/react-router'
import { forgetSession } from '../features/session/sign-out.ts'

/** SPEC /timedout: an action only — forget the session, go to sign-in. */
export const Route = createFileRoute('/timedout')({
  beforeLoad: ({ context, preload }) => {
    if (preload) return
    forgetSession(context.queryClient)
    throw redirect({ to: '/signin', replace: true })
  },
})
