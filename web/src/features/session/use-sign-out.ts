import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { closeAgentSocket } from '../../api/socket.ts'
import { clearSession } from '../../api/storage.ts'

/** SPEC /signout: revoke the session on the server, clear the client session, go to /. */
export function useSignOut() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return async () => {
    try {
      await apiRequest('/signing/signout', {
        method: 'POST',
        schema: z.unknown(),
        redirectOnExpiredSession: false,
      })
    } catch {
      // Signing out must always work locally; an unreachable or already-expired session changes nothing.
    }
    clearSession()
    closeAgentSocket()
    queryClient.clear()
    await navigate({ to: '/' })
  }
}
