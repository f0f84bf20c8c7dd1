import { CalendarFeedUrl } from '@porchlight/shared/schemas/calendar-feed'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

export const calendarFeedUrlQueryOptions = (agentId: number) =>
  queryOptions({
    queryKey: ['calendarFeedUrl', agentId],
    queryFn: ({ signal }) =>
      apiRequest(`/openhousemgmt/getCalendarFeedUrl/${agentId}`, { schema: CalendarFeedUrl, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  })

/** Revokes the address; the next read makes a new one. */
export function useRevokeCalendarFeed(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest(`/openhousemgmt/revokeCalendarFeed/${agentId}`, {
        method: 'DELETE',
        schema: z.object({ revoked: z.boolean() }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['calendarFeedUrl', agentId] }),
  })
}
