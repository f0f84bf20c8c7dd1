import { createFileRoute } from '@tanstack/react-router'
import { OpenHouseMapPage } from '../../../features/open-houses/open-house-map-page.tsx'
import { openHouseListQueryOptions } from '../../../features/open-houses/queries.ts'
import { requireAgent } from '../../../features/session/queries.ts'

/** SPEC /openhousemap: a map of open houses (maplibre loads only here and in grid views). */
export const Route = createFileRoute('/_agent/_licensed/openhousemap')({
  beforeLoad: ({ context }) => ({ agent: requireAgent(context.session) }),
  loader: ({ context: { queryClient, agent } }) =>
    queryClient.ensureQueryData(openHouseListQueryOptions('upcoming', agent.id)),
  component: OpenHouseMapPage,
})
