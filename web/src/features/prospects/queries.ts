import {
  type AddAttendeeBody,
  FeedbackSummary,
  OpenHouseProspect,
  Prospect,
  type SaveProspectBody,
} from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiDownload, apiRequest } from '../../api/client.ts'
import { orNotFound, retryUnlessMissing } from '../open-houses/not-found.ts'

// The API answers at most 500 a page; an agent's own list and an open house's guests fit in one.
const PAGE = 'limit=500'

export const prospectKeys = {
  all: ['prospects'] as const,
  own: (agentId: number) => ['prospects', 'own', agentId] as const,
  notIn: (agentId: number, openHouseId: number) => ['prospects', 'notIn', agentId, openHouseId] as const,
  details: (id: number) => ['prospects', 'details', id] as const,
  attendees: (openHouseId: number) => ['prospects', 'attendees', openHouseId] as const,
  feedback: (openHouseId: number) => ['feedbackSummary', openHouseId] as const,
}

export function ownProspectsQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: prospectKeys.own(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectsByREAgentId/${agentId}?${PAGE}`, {
        schema: z.array(Prospect),
        signal,
      }),
  })
}

/**
 * The search page's cards: the agent's prospects who are not yet attendees of the open house, or all
 * of them without one.
 */
export function searchableProspectsQueryOptions(agentId: number, openHouseId: number | undefined) {
  const path = openHouseId
    ? `/prospectmgmt/getProspectsByREAgentIdNotInOH/${agentId}/${openHouseId}`
    : `/prospectmgmt/getProspectsByREAgentId/${agentId}`
  return queryOptions({
    queryKey: openHouseId ? prospectKeys.notIn(agentId, openHouseId) : prospectKeys.own(agentId),
    queryFn: ({ signal }) => apiRequest(`${path}?${PAGE}`, { schema: z.array(Prospect), signal }),
  })
}

/** A prospect the agent may see (its own, or a guest of its open house); any other answers 404. */
export function prospectDetailsQueryOptions(id: number) {
  return queryOptions({
    queryKey: prospectKeys.details(id),
    queryFn: ({ signal }) =>
      orNotFound(apiRequest(`/prospectmgmt/getProspectDetails/${id}`, { schema: Prospect, signal })),
    retry: retryUnlessMissing,
  })
}

/** The open house's attendees (the host's live board). */
export function attendeesQueryOptions(openHouseId: number) {
  return queryOptions({
    queryKey: prospectKeys.attendees(openHouseId),
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectsByOpenHouseId/${openHouseId}?${PAGE}`, {
        schema: z.array(OpenHouseProspect),
        signal,
      }),
  })
}

export function feedbackSummaryQueryOptions(openHouseId: number) {
  return queryOptions({
    queryKey: prospectKeys.feedback(openHouseId),
    queryFn: ({ signal }) =>
      apiRequest(`/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/${openHouseId}`, {
        schema: FeedbackSummary,
        signal,
      }),
  })
}

/** POST saveProspect (new) or PATCH saveProspect/{id}; with `openHouseId` the server adds the attendee. */
export function useSaveProspectMutation(prospectId?: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveProspectBody) =>
      apiRequest(prospectId ? `/prospectmgmt/saveProspect/${prospectId}` : '/prospectmgmt/saveProspect', {
        method: prospectId ? 'PATCH' : 'POST',
        body,
        schema: Prospect,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(prospectKeys.details(saved.id), saved)
      void queryClient.invalidateQueries({ queryKey: prospectKeys.all })
    },
  })
}

/** POST /openhousemgmt/AddAttendee (SPEC §3 attendee record). */
export function useAddAttendeeMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ openHouseId, prospectId }: Pick<AddAttendeeBody, 'openHouseId' | 'prospectId'>) => {
      const now = new Date().toISOString()
      return apiRequest('/openhousemgmt/AddAttendee', {
        method: 'POST',
        body: { openHouseId, prospectId, createdDate: now, updatedDate: now },
        schema: z.object({ id: z.number() }),
      })
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: prospectKeys.all }),
  })
}

/** GET the agent's prospects as CSV (needs the bearer token, so it is fetched, then saved). */
export async function downloadProspectsCsv(agentId: number) {
  const blob = await apiDownload(`/prospectmgmt/export/${agentId}.csv`)
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `prospects-${agentId}.csv`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1_000)
}
