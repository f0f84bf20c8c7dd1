import { ConsentEntry } from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { saveDownload } from './queries.ts'

/** The owner's consent history of a prospect, newest first (GET getProspectConsents). */
export function prospectConsentsQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['prospects', 'consents', id] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectConsents/${id}`, { schema: z.array(ConsentEntry), signal }),
  })
}

/** POST optOutProspectEmail: the guest asked the agent to stop mail; the history and details refresh. */
export function useOptOutProspectEmailMutation(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest(`/prospectmgmt/optOutProspectEmail/${id}`, {
        method: 'POST',
        schema: z.array(ConsentEntry),
      }),
    onSuccess: (history) => {
      queryClient.setQueryData(prospectConsentsQueryOptions(id).queryKey, history)
      void queryClient.invalidateQueries({ queryKey: ['prospects', 'details', id] })
    },
  })
}

/** The prospect as a vCard file. */
export function downloadProspectVCard(id: number, fileName: string) {
  return saveDownload(`/prospectmgmt/getProspectVCard/${id}`, fileName)
}
