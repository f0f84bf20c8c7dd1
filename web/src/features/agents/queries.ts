import {
  Agent,
  type AgentRole,
  type CreateAgentBody,
  FirmMember,
  type FirmMembershipStatus,
  type UpdateAgentBody,
} from '@porchlight/shared'
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

/** The roster shows a decided or granted agent's answer at once; the refetch confirms it. */
function useShowInRoster(license: string) {
  const queryClient = useQueryClient()
  return (changed: Agent) => {
    queryClient.setQueryData<FirmMember[]>(firmAgentsKey(license), (list) =>
      list?.map((m) =>
        m.id === changed.id
          ? { ...m, firmMembershipStatus: changed.firmMembershipStatus, reAgentRole: changed.reAgentRole }
          : m,
      ),
    )
    void queryClient.invalidateQueries({ queryKey: firmAgentsKey(license) })
  }
}

/**
 * A verified Team Lead or Admin Team Member approves ('verified') or declines an agent's membership of
 * its firm, as it saw it (`currentStatus`): a decision someone else took meanwhile answers 409.
 */
export function useDecideFirmMemberMutation(license: string) {
  const show = useShowInRoster(license)
  return useMutation({
    mutationFn: ({
      reAgentId,
      approve,
      currentStatus,
    }: {
      reAgentId: number
      approve: boolean
      currentStatus: FirmMembershipStatus
    }) =>
      apiRequest(`/reagentmgmt/${approve ? 'approveFirmMember' : 'declineFirmMember'}/${reAgentId}`, {
        method: 'POST',
        body: { currentStatus },
        schema: Agent,
      }),
    onSuccess: show,
  })
}

/** A verified Team Lead grants a role to a verified member of its firm (Real Estate Agent: revokes it). */
export function useGrantFirmRoleMutation(license: string) {
  const show = useShowInRoster(license)
  return useMutation({
    mutationFn: ({ reAgentId, reAgentRole }: { reAgentId: number; reAgentRole: AgentRole }) =>
      apiRequest(`/reagentmgmt/grantFirmRole/${reAgentId}`, {
        method: 'POST',
        body: { reAgentRole },
        schema: Agent,
      }),
    onSuccess: show,
  })
}

/** The agent, not verified, asks the Porchlight operator to verify its firm membership (once a day). */
export function useAskFirmVerificationMutation() {
  return useMutation({
    mutationFn: () =>
      apiRequest('/reagentmgmt/requestFirmVerification', {
        method: 'POST',
        schema: z.object({ requestedAt: z.string(), message: z.string() }),
      }),
  })
}
