import { createFileRoute } from '@tanstack/react-router'
import { DoorSignPage } from '../../../../../features/door-sign/door-sign-page.tsx'
import { openHouseDetailsQueryOptions } from '../../../../../features/open-houses/queries.ts'
import { openHouseIdParams } from '../../../../../features/open-houses/schedule-search.ts'

/** /openhouses/schedule/{openHouseId}/sign: the printable door sign (Letter) with the guest QR code. */
export const Route = createFileRoute('/_agent/_licensed/openhouses/schedule/$openHouseId/sign')({
  params: openHouseIdParams,
  loader: ({ context: { queryClient }, params }) =>
    queryClient.ensureQueryData(openHouseDetailsQueryOptions(params.openHouseId)),
  component: DoorSignPage,
})
