import type { QueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { closeAgentSocket } from '../../api/socket.ts'
import { clearSession } from '../../api/storage.ts'

/** Revokes the session on the server and forgets it here: token, profile, pre-login profile, plan. */
export async function signOut(queryClient: QueryClient) {
  try {
    await apiRequest('/signing/signout', {
      method: 'POST',
      schema: z.unknown(),
      redirectOnExpiredSession: false,
    })
  } catch {
    // Signing out must always work locally; an unreachable or already-expired session changes nothing.
  }
  forgetSession(queryClient)
}

/** The local half of signing out, also used by /timedout (SPEC §2). */
export function forgetSession(queryClient: QueryClient) {
  clearSession()
  closeAgentSocket()
  queryClient.clear()
}
