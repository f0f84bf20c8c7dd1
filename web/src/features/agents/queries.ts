import { Agent, type CreateAgentBody, type UpdateAgentBody } from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { storeLoggedInProfile } from '../../api/storage.ts'
import { updateCachedSession } from '../session/queries.ts'

export function agentQueryOptions(reAgentId: number) {
  return queryOptions({
    queryKey: ['agent', reAgentId],
    queryFn: ({ signal }) =>
      apiRequest(`/reagentmgmt/getREAgentDetails/${reAgentId}`, { schema: Agent, signal }),
  })
}

/** A saved agent becomes the signed-in profile (SPEC §3 logged-in profile key) and the session's agent. */
function useRememberAgent() {
  const queryClient = useQueryClient()
  return (agent: Agent) => {
    storeLoggedInProfile(agent)
    queryClient.setQueryData(agentQueryOptions(agent.id).queryKey, agent)
    updateCachedSession(queryClient, { agent })
  }
}

export function useCreateAgentMutation() {
  const remember = useRememberAgent()
  return useMutation({
    mutationFn: (body: z.output<typeof CreateAgentBody>) =>
      apiRequest('/reagentmgmt/saveREAgent', { method: 'POST', body, schema: Agent }),
    onSuccess: remember,
  })
}

export function useUpdateAgentMutation(reAgentId: number) {
  const remember = useRememberAgent()
  return useMutation({
    mutationFn: (body: z.output<typeof UpdateAgentBody>) =>
      apiRequest(`/reagentmgmt/${reAgentId}`, { method: 'PATCH', body, schema: Agent }),
    onSuccess: remember,
  })
}

/** Agents of a broker firm: the listing agents a Team Lead or Admin Team Member chooses from (SPEC §5). */
export function firmAgentsQueryOptions(license: string) {
  return queryOptions({
    queryKey: ['firmAgents', license],
    queryFn: ({ signal }) =>
      apiRequest(`/reagentmgmt/getREAgentsByBrokerFirmLicense/${encodeURIComponent(license)}`, {
        schema: z.array(Agent),
        signal,
      }),
  })
}
