import {
  type CancelOpenHouseBody,
  FirmMember,
  OpenHouseDetails,
  type PublishLevel,
  type SaveOpenHouseBody,
  type UpdateScheduleBody,
} from '@porchlight/shared'
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiDownload, apiRequest } from '../../api/client.ts'
import { orNotFound, retryUnlessMissing } from '../../api/not-found.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { noteOwnAction } from './own-actions.ts'

const List = z.array(OpenHouseDetails)

/** The three lists of /openhouses (SPEC §2), by the API's path segment. */
const OPEN_HOUSE_LISTS = {
  upcoming: 'getMyUpcomingOH',
  available: 'getAvailableToHostOH',
  past: 'getMyPastOH',
} as const
export type OpenHouseList = keyof typeof OPEN_HOUSE_LISTS

export const openHouseKeys = {
  all: ['openHouses'] as const,
  list: (list: OpenHouseList, agentId: number) => ['openHouses', list, agentId] as const,
  lists: (list: OpenHouseList) => ['openHouses', list] as const,
  details: (id: number) => ['openHouse', id] as const,
}

export function openHouseListQueryOptions(list: OpenHouseList, agentId: number) {
  return queryOptions({
    queryKey: openHouseKeys.list(list, agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/openhousemgmt/${OPEN_HOUSE_LISTS[list]}/${agentId}`, { schema: List, signal }),
  })
}

/** One open house; one the agent may not see answers 404, shown as the not-found page. */
export function openHouseDetailsQueryOptions(id: number) {
  return queryOptions({
    queryKey: openHouseKeys.details(id),
    queryFn: ({ signal }) =>
      orNotFound(
        apiRequest(`/openhousemgmt/getOpenHouseDetails/${id}`, { schema: OpenHouseDetails, signal }),
      ),
    retry: retryUnlessMissing,
  })
}

/**
 * The firm's agents as the caller may see them (403 while its own firm membership is not verified);
 * `mayScheduleFor` marks the accepted teammates a Team Lead or Admin Team Member schedules for.
 */
export function firmMembersQueryOptions(license: string) {
  return queryOptions({
    queryKey: ['firmMembers', license],
    queryFn: ({ signal }) =>
      apiRequest(`/reagentmgmt/getREAgentsByBrokerFirmLicense/${encodeURIComponent(license)}`, {
        schema: z.array(FirmMember),
        signal,
      }),
  })
}

/** Every open-house list and detail, and the plan counters they move (SPEC §4 "Plan counters"). */
export function refreshOpenHouses(queryClient: QueryClient, agentId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: openHouseKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['openHouse'] }),
    queryClient.invalidateQueries({ queryKey: planUtilizationQueryOptions(agentId).queryKey }),
  ])
}

function useAfterChange(agentId: number) {
  const queryClient = useQueryClient()
  return (saved?: OpenHouseDetails) => {
    if (saved) queryClient.setQueryData(openHouseKeys.details(saved.id), saved)
    void refreshOpenHouses(queryClient, agentId)
  }
}

/**
 * POST saveOpenHouse (new) or PATCH saveOpenHouse/{id} (edit). An edit names the version it was made
 * on (`updatedDate` as If-Match): if the open house changed meanwhile, the server answers 409 STALE.
 */
export function useSaveOpenHouseMutation(agentId: number, openHouseId?: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: ({ body, version }: { body: SaveOpenHouseBody; version?: string }) => {
      if (openHouseId) noteOwnAction(openHouseId)
      return apiRequest(
        openHouseId ? `/openhousemgmt/saveOpenHouse/${openHouseId}` : '/openhousemgmt/saveOpenHouse',
        {
          method: openHouseId ? 'PATCH' : 'POST',
          body,
          headers: version ? { 'If-Match': `"${version}"` } : undefined,
          schema: OpenHouseDetails,
        },
      )
    },
    onSuccess: after,
  })
}

/** The path names the listing agent, who may not be the caller (a teammate scheduled it for them). */
export function usePublishMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: ({
      openHouseId,
      listingAgentId,
      level,
    }: {
      openHouseId: number
      listingAgentId: number
      level: PublishLevel
    }) => {
      noteOwnAction(openHouseId)
      return apiRequest(
        `/openhousemgmt/publishOpenHouseOpportunity/${openHouseId}/${listingAgentId}/${encodeURIComponent(level)}`,
        { method: 'POST', schema: OpenHouseDetails },
      )
    },
    onSuccess: after,
  })
}

export function useClaimMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (openHouseId: number) => {
      noteOwnAction(openHouseId)
      return apiRequest(`/openhousemgmt/claimToHostOpenHouse/${openHouseId}/${agentId}`, {
        method: 'PATCH',
        schema: OpenHouseDetails,
      })
    },
    onSuccess: after,
    // A lost race changes the list too: refetch so the taken open house leaves it.
    onError: () => after(),
  })
}

/** Sets the flexible date and time and claims, in one call (SPEC §4 updateSchedule). */
export function useUpdateScheduleMutation(agentId: number, openHouseId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (body: UpdateScheduleBody) => {
      noteOwnAction(openHouseId)
      return apiRequest(`/openhousemgmt/updateOpenHouseSchedule/${openHouseId}`, {
        method: 'PATCH',
        body,
        schema: OpenHouseDetails,
      })
    },
    onSuccess: after,
  })
}

export function useWithdrawMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (openHouseId: number) => {
      noteOwnAction(openHouseId)
      return apiRequest(`/openhousemgmt/withdrawToHostOpenHouse/${openHouseId}/${agentId}`, {
        method: 'DELETE',
        schema: OpenHouseDetails,
      })
    },
    onSuccess: after,
  })
}

export function useCancelMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (body: Omit<CancelOpenHouseBody, 'openHouseCanceledFlag' | 'updatedDate'>) => {
      noteOwnAction(Number(body.openHouseId))
      return apiRequest('/openhousemgmt/cancelOpenHouse', {
        method: 'POST',
        // SPEC §3 cancel payload: the flag is always true; the server sets its own dates (API.md).
        body: { ...body, openHouseCanceledFlag: true, updatedDate: new Date().toISOString() },
        schema: OpenHouseDetails,
      })
    },
    onSuccess: after,
  })
}

export function useCloneMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (openHouseId: number) =>
      apiRequest(`/openhousemgmt/cloneOpenHouse/${openHouseId}`, {
        method: 'POST',
        schema: OpenHouseDetails,
      }),
    onSuccess: after,
  })
}

/** "Add another day" (issue 32): the same open house, same times, on the property's next free day. */
export function useAnotherDayMutation(agentId: number) {
  const after = useAfterChange(agentId)
  return useMutation({
    mutationFn: (openHouseId: number) =>
      apiRequest(`/openhousemgmt/addAnotherDay/${openHouseId}`, {
        method: 'POST',
        schema: OpenHouseDetails,
      }),
    onSuccess: after,
  })
}

/** SPEC §6 Request OH Report: the listing agent (or its scheduler) asks the host; the server mails it. */
export function useRequestReportMutation() {
  return useMutation({
    mutationFn: (openHouseId: number) =>
      apiRequest(`/openhousemgmt/requestOpenHouseHostingReport/${openHouseId}`, {
        method: 'POST',
        schema: z.object({ queued: z.boolean() }),
      }),
  })
}

/** "Add to calendar": the .ics needs the bearer token, so it is fetched and saved from a blob. */
/** SPEC §6 Send OH Report: the host mails its hosting report to the listing agent. */
export function useSendReportMutation() {
  return useMutation({
    mutationFn: (openHouseId: number) =>
      apiRequest(`/openhousemgmt/sendOpenHouseHostingReport/${openHouseId}`, {
        method: 'POST',
        schema: z.object({ queued: z.boolean() }),
      }),
  })
}

export async function downloadCalendar(openHouseId: number) {
  const blob = await apiDownload(`/openhousemgmt/calendar/${openHouseId}`)
  saveBlob(blob, `open-house-${openHouseId}.ics`)
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // The download has started from the URL; give the browser a moment before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
