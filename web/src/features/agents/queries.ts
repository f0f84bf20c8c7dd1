import { Agent, type CreateAgentBody, FirmMember, type UpdateAgentBody } from '@porchlight/shared'
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

const firmAgentsKey = (license: string) => ['firmAgents', license] as const

/**
 * The broker firm's roster (FirmMember: names, contact data only for accepted teammates), for a verified
 * member of the firm only (403 firmNotVerified otherwise). A verified Team Lead or Admin Team Member also
 * gets the agents waiting for approval ('pending') and those it declined. The caller is not listed.
 * The listing agents a Team Lead or Admin Team Member chooses from (SPEC §5) and team candidates.
 */
export function firmAgentsQueryOptions(license: string) {
  return queryOptions({
    queryKey: firmAgentsKey(license),
    queryFn: ({ signal }) =>
      apiRequest(`/reagentmgmt/getREAgentsByBrokerFirmLicense/${encodeURIComponent(license)}`, {
        schema: z.array(FirmMember),
        signal,
      }),
  })
}

/**
 * A verified Team Lead or Admin Team Member approves ('verified') or declines an agent's request to be a
 * member of its firm. The roster shows the answer at once; the refetch confirms it.
 */
export function useDecideFirmMemberMutation(license: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ reAgentId, approve }: { reAgentId: number; approve: boolean }) =>
      apiRequest(`/reagentmgmt/${approve ? 'approveFirmMember' : 'declineFirmMember'}/${reAgentId}`, {
        method: 'POST',
        schema: Agent,
      }),
    onSuccess: (decided) => {
      queryClient.setQueryData<FirmMember[]>(firmAgentsKey(license), (list) =>
        list?.map((m) =>
          m.id === decided.id ? { ...m, firmMembershipStatus: decided.firmMembershipStatus } : m,
        ),
      )
      void queryClient.invalidateQueries({ queryKey: firmAgentsKey(license) })
    },
  })
}
