import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { signOut } from './sign-out.ts'

/** SPEC /signout: revoke the session on the server, clear the client session, go to /. */
export function useSignOut() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return async () => {
    await signOut(queryClient)
    await navigate({ to: '/' })
  }
}
