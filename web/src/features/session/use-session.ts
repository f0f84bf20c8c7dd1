import { useSyncExternalStore } from 'react'
import { readLoggedInProfile, readToken, subscribeSession } from '../../api/storage.ts'

/** The current session, re-rendering on sign-in and sign-out (in this tab or another). */
export function useSession() {
  const token = useSyncExternalStore(subscribeSession, readToken)
  const profile = useSyncExternalStore(subscribeSession, readLoggedInProfile)
  return { isSignedIn: token !== null, token, profile }
}
