import { type SessionInfo as Session, SessionInfo } from '@porchlight/shared'
import { type QueryClient, queryOptions, useSuspenseQuery } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { ApiError, apiRequest } from '../../api/client.ts'
import { clearSession, readToken, storeLoggedInProfile, storeUserAndPlan } from '../../api/storage.ts'

/**
 * Who the stored token belongs to (GET /signing/session). Only the signed-in guard fetches it, so a
 * 403 always becomes a redirect there; screens read the cached answer and never refetch it behind
 * the guard's back. Every answer refreshes the stored profile and plan (SPEC §3 "Client storage").
 */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: ['session'],
    queryFn: async ({ signal }) => {
      const session = await apiRequest('/signing/session', {
        schema: SessionInfo,
        signal,
        redirectOnExpiredSession: false,
      })
      storeLoggedInProfile(session.agent)
      storeUserAndPlan(session.user, session.activePlan)
      return session
    },
    staleTime: 30_000,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  })
}

/**
 * The signed-in guard of the `_agent` layout: no token goes to /signin, an expired or revoked one to
 * /signin?session=expired (SPEC §4).
 */
/** `returnTo`: the page asked for, so that sign-in goes on to it (a link from a mail, say). */
export async function requireSession(queryClient: QueryClient, returnTo?: string): Promise<Session> {
  if (!readToken()) throw redirect({ to: '/signin', search: { redirect: returnTo } })
  try {
    return await queryClient.fetchQuery(sessionQueryOptions())
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SESSION_EXPIRED') {
      // The token is no use any more: forgotten, so /signin shows its form instead of coming back here.
      clearSession()
      throw redirect({ to: '/signin', search: { session: 'expired', redirect: returnTo } })
    }
    throw error
  }
}

/** Pages that need an agent profile send a user without one to create it (SPEC §4 sign-in branch). */
export function requireAgent(session: Session) {
  if (!session.agent) {
    throw redirect({ to: '/signinsuccess', search: { porchlightUserId: session.user.id, source: 'signin' } })
  }
  return session.agent
}

/** The session the guard loaded, kept current by the mutations that change it. */
export function useSessionInfo(): Session {
  return useSuspenseQuery(sessionQueryOptions()).data
}

/** Replaces part of the cached session after a change the server confirmed (agent saved, email edited). */
export function updateCachedSession(queryClient: QueryClient, change: Partial<Session>) {
  queryClient.setQueryData(sessionQueryOptions().queryKey, (session) =>
    session ? { ...session, ...change } : session,
  )
}
