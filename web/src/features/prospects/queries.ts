import {
  type AddAttendeeBody,
  type AddProspectNoteBody,
  FeedbackSummary,
  OpenHouseProspect,
  Prospect,
  ProspectNote,
  ProspectOpenHouseOption,
  ProspectPage,
  prospectsCsvFileName,
  type SaveProspectBody,
  type UpdateProspectFollowUpBody,
} from '@porchlight/shared'
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiDownload, apiRequest } from '../../api/client.ts'
import { orNotFound, retryUnlessMissing } from '../../api/not-found.ts'
import { type ProspectListSearch, pageOf, prospectFilterQuery } from './search.ts'

// The API answers at most 500 a page; an agent's own list and an open house's guests fit in one.
const PAGE = 'limit=500'

export const prospectKeys = {
  all: ['prospects'] as const,
  own: (agentId: number) => ['prospects', 'own', agentId] as const,
  ownPage: (agentId: number, query: string) => ['prospects', 'own', agentId, 'page', query] as const,
  openHouses: (agentId: number) => ['prospects', 'openHouses', agentId] as const,
  notes: (id: number) => ['prospects', 'notes', id] as const,
  notIn: (agentId: number, openHouseId: number) => ['prospects', 'notIn', agentId, openHouseId] as const,
  details: (id: number) => ['prospects', 'details', id] as const,
  attendees: (openHouseId: number) => ['prospects', 'attendees', openHouseId] as const,
  feedback: (openHouseId: number) => ['feedbackSummary', openHouseId] as const,
}

/**
 * One page of the /prospects list as the address asks (sort, filters, page) and how many match in all.
 * The page on screen stays while the next one loads (no jump to a spinner on each page turn).
 */
export function ownProspectPageQueryOptions(agentId: number, search: ProspectListSearch) {
  const query = prospectFilterQuery(search)
  const { limit, offset } = pageOf(search)
  query.set('limit', String(limit))
  query.set('offset', String(offset))
  const qs = query.toString()
  return queryOptions({
    queryKey: prospectKeys.ownPage(agentId, qs),
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectsByREAgentId/${agentId}?${qs}`, {
        schema: ProspectPage,
        envelope: true,
        signal,
      }),
    placeholderData: keepPreviousData,
  })
}

/** The open houses the agent lists or hosts, which the list may be filtered by. */
export function prospectOpenHousesQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: prospectKeys.openHouses(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectOpenHouses/${agentId}`, {
        schema: z.array(ProspectOpenHouseOption),
        signal,
      }),
    staleTime: 60_000,
  })
}

/** The owner's notes on its prospect, newest first. */
export function prospectNotesQueryOptions(id: number) {
  return queryOptions({
    queryKey: prospectKeys.notes(id),
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectNotes/${id}`, { schema: z.array(ProspectNote), signal }),
  })
}

/** POST addProspectNote: the new note goes on top of the list at once. */
export function useAddProspectNoteMutation(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: AddProspectNoteBody) =>
      apiRequest(`/prospectmgmt/addProspectNote/${id}`, { method: 'POST', body, schema: ProspectNote }),
    onSuccess: (note) => {
      queryClient.setQueryData(prospectKeys.notes(id), (notes: ProspectNote[] | undefined) => [
        note,
        ...(notes ?? []),
      ])
    },
  })
}

/** PATCH updateProspectFollowUp: the stage and next follow-up date; lists sorted or filtered by them refetch. */
export function useUpdateFollowUpMutation(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateProspectFollowUpBody) =>
      apiRequest(`/prospectmgmt/updateProspectFollowUp/${id}`, { method: 'PATCH', body, schema: Prospect }),
    onSuccess: (saved) => {
      queryClient.setQueryData(prospectKeys.details(saved.id), saved)
      void queryClient.invalidateQueries({ queryKey: prospectKeys.all })
    },
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

/**
 * Fetches a file the API makes for the signed-in agent (it needs the bearer token, so a plain link
 * cannot) and saves it under `fileName`.
 */
export async function saveDownload(path: string, fileName: string) {
  const blob = await apiDownload(path)
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1_000)
}

/** The list as filtered, as CSV or as one vCard file of them all, under a dated name. */
export function downloadProspects(agentId: number, search: ProspectListSearch, as: 'csv' | 'vcf') {
  const query = prospectFilterQuery(search).toString()
  const suffix = query ? `?${query}` : ''
  const fileName = prospectsCsvFileName(localDate())
  return as === 'csv'
    ? saveDownload(`/prospectmgmt/export/${agentId}.csv${suffix}`, fileName)
    : saveDownload(`/prospectmgmt/exportVCards/${agentId}${suffix}`, fileName.replace(/\.csv$/, '.vcf'))
}

/** Today as the agent's calendar reads it, 'YYYY-MM-DD'. */
function localDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
