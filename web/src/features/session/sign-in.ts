import type { SignInResult } from '@porchlight/shared'
import type { QueryClient } from '@tanstack/react-query'
import type { UseNavigateResult } from '@tanstack/react-router'
import { storeSession } from '../../api/storage.ts'
import { setFlash } from './flash.ts'
import { sessionQueryOptions } from './queries.ts'

/**
 * Keeps what sign-in or email validation answered (SPEC §3 "Client storage") and primes the session
 * cache with it, so the first signed-in page needs no extra round trip.
 */
export function rememberSignIn(queryClient: QueryClient, result: SignInResult) {
  const { porchlightUserToken: token, ...user } = result.porchlightUserDTO
  const agent = result.realEstateAgentDTO
  storeSession({ token, user, profile: agent, plan: result.activePlan })
  // Nothing cached for a previous session may leak into this one.
  queryClient.removeQueries()
  if (token) {
    queryClient.setQueryData(sessionQueryOptions().queryKey, {
      user,
      // Signed in with a temporary password: the password change asks for no current password.
      recoverySession: result.mustChangePassword,
      agent,
      activePlan: result.activePlan,
    })
  }
}

const TEMPORARY_PASSWORD_NOTICE = 'You signed in with a temporary password. Please choose a new password now.'

/** A path of this app only: never another origin (`//host`, `/\host`) or a scheme. */
export function ownPath(value: string | undefined): string | undefined {
  return value && /^\/(?![/\\])/.test(value) ? value : undefined
}

/**
 * SPEC §4 sign-in branches, plus the temporary-password case of API.md. An agent with a plan who came
 * from a link (an invitation mail) goes on to that page instead of the dashboard.
 */
export function goAfterSignIn(navigate: UseNavigateResult<string>, result: SignInResult, returnTo?: string) {
  const { id, userEnabled, porchlightUserToken } = result.porchlightUserDTO
  const agent = result.realEstateAgentDTO
  if (!userEnabled || !porchlightUserToken) {
    return navigate({ to: '/validateEmail', search: { porchlightUserId: id } })
  }
  if (result.mustChangePassword) {
    setFlash(TEMPORARY_PASSWORD_NOTICE)
    return navigate({ to: '/mystuff/changeUserPass' })
  }
  if (!agent) return navigate({ to: '/signinsuccess', search: { porchlightUserId: id, source: 'signin' } })
  if (!result.activePlan) return navigate({ to: '/pricingplanexpired', search: { reAgentId: agent.id } })
  const next = ownPath(returnTo)
  return next ? navigate({ href: next }) : navigate({ to: '/dashboard' })
}
