import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ManageAttendeesPage } from '../../../../../features/attendees/manage-page.tsx'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'
import { attendeesQueryOptions } from '../../../../../features/prospects/queries.ts'

/** SPEC /openhouses/schedule/{openHouseId}/manage?rePropertyId=: the live attendee board. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/$openHouseId/manage')({
  params: openHouseIdParams,
  validateSearch: z.object({ rePropertyId: Id.optional().catch(undefined) }),
  loader: ({ context: { queryClient }, params }) =>
    Promise.all([
      queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
      // The board shows its own loading and error states for the list; a slow list never blocks it.
      queryClient.prefetchQuery(attendeesQueryOptions(params.openHouseId)),
    ]),
  component: ManageAttendeesPage,
})
