import {
  type AddTeamMemberBody,
  type SaveTeamBody,
  Team,
  TeamDetails,
  TeamMember,
  TeamMembersList,
  type UpdateTeamBody,
} from '@porchlight/shared'
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, apiRequest } from '../../api/client.ts'
import { dashboardStatisticsKey } from '../../api/query-keys.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { teamKeys } from './keys.ts'

/** The agent's own teams: led, co-led and joined (GET getRETeamsByREAgentId). */
export function agentTeamsQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: teamKeys.ofAgent(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/reteammgmt/getRETeamsByREAgentId/${agentId}`, { schema: z.array(Team), signal }),
  })
}

/** One team with its lead (and firm name) and co-lead, for its people only. */
export function teamDetailsQueryOptions(id: number) {
  return queryOptions({
    queryKey: teamKeys.details(id),
    queryFn: ({ signal }) =>
      apiRequest(`/reteammgmt/getRETeamDetails/${id}`, { schema: TeamDetails, signal }),
  })
}

/** The team and its member cards (name, phone, email). */
export function teamMembersQueryOptions(id: number) {
  return queryOptions({
    queryKey: teamKeys.members(id),
    queryFn: ({ signal }) =>
      apiRequest(`/reteammgmt/getRETeamMembersByRETeamId/${id}`, { schema: TeamMembersList, signal }),
  })
}

/** After any team change: the lists, the plan's team count and the dashboard may all have moved. */
function refreshAfterTeamChange(queryClient: QueryClient, agentId: number) {
  void queryClient.invalidateQueries({ queryKey: teamKeys.all })
  void queryClient.invalidateQueries({ queryKey: planUtilizationQueryOptions(agentId).queryKey })
  void queryClient.invalidateQueries({ queryKey: dashboardStatisticsKey(agentId) })
}

export function useCreateTeamMutation(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveTeamBody) =>
      apiRequest('/reteammgmt/saveRETeam', { method: 'POST', body, schema: Team }),
    onSuccess: () => refreshAfterTeamChange(queryClient, agentId),
  })
}

export function useUpdateTeamMutation(agentId: number, teamId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateTeamBody) =>
      apiRequest(`/reteammgmt/saveRETeam/${teamId}`, { method: 'PATCH', body, schema: Team }),
    onSuccess: () => refreshAfterTeamChange(queryClient, agentId),
  })
}

export function useAddTeamMemberMutation(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: AddTeamMemberBody) =>
      apiRequest('/reteammgmt/addMemberToRETeam', { method: 'POST', body, schema: TeamMember }),
    onSuccess: () => refreshAfterTeamChange(queryClient, agentId),
    // 'already part of the team' means this page's member list is behind: bring it up to date.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: teamKeys.all })
      }
    },
  })
}

export function useRemoveTeamMemberMutation(agentId: number, teamId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (reTeamMemberId: number) =>
      apiRequest(`/reteammgmt/removeMemberFromRETeam/${reTeamMemberId}`, {
        method: 'DELETE',
        schema: TeamMember,
      }),
    onSuccess: (_removed, reTeamMemberId) => {
      // The card leaves at once; the refetch confirms it.
      queryClient.setQueryData<TeamMembersList>(teamKeys.members(teamId), (list) =>
        list
          ? {
              ...list,
              reTeamMemberWithSupportingDetailsList: list.reTeamMemberWithSupportingDetailsList.filter(
                (m) => m.reTeamMemberId !== reTeamMemberId,
              ),
            }
          : list,
      )
      refreshAfterTeamChange(queryClient, agentId)
    },
  })
}

/**
 * The invited agent answers its invitation to a team (decline also lets an accepted member leave). The
 * agent's team list shows the answer at once: an accepted team becomes one of its teams, a declined one
 * leaves the list. Its numbers and the team's may move, so they refresh too.
 */
export function useAnswerTeamInvitationMutation(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ reTeamId, accept }: { reTeamId: number; accept: boolean }) =>
      apiRequest(`/reteammgmt/${accept ? 'acceptTeamInvitation' : 'declineTeamInvitation'}/${reTeamId}`, {
        method: 'POST',
        schema: TeamMember,
      }),
    onSuccess: (_member, { reTeamId, accept }) => {
      queryClient.setQueryData<Team[]>(teamKeys.ofAgent(agentId), (teams) =>
        accept
          ? teams?.map((t) => (t.id === reTeamId ? { ...t, invitationStatus: 'accepted' as const } : t))
          : teams?.filter((t) => t.id !== reTeamId),
      )
      refreshAfterTeamChange(queryClient, agentId)
    },
    // Withdrawn meanwhile (404) or answered elsewhere (409): the list is behind, bring it up to date.
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: teamKeys.all })
      }
    },
  })
}
