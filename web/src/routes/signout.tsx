import { createFileRoute, redirect } from '@tanstack/react-router'
import { signOut } from '../features/session/sign-out.ts'

/** SPEC /signout: an action only — end the session, go home. Never run by a hover preload. */
export const Route = createFileRoute('/signout')({
  beforeLoad: async ({ context, preload }) => {
    if (preload) return
    await signOut(context.queryClient)
    throw redirect({ to: '/', replace: true })
  },
})
