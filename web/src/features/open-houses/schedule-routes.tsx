import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { propertyQueryOptions } from '../inventory/queries.ts'
import { openHouseDetailsQueryOptions } from './queries.ts'
import { SchedulePage } from './schedule-page.tsx'

const newRoute = getRouteApi('/_agent/_licensed/openhouses/schedule/')
const editRoute = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/edit')

/** /openhouses/schedule: the property comes from ?rePropertyId= (added to inventory just before). */
export function NewSchedulePage() {
  const { rePropertyId, reInventoryId } = newRoute.useSearch()
  const { data: property } = useSuspenseQuery(propertyQueryOptions(rePropertyId))
  return <SchedulePage key={rePropertyId} mode="new" property={property} reInventoryId={reInventoryId} />
}

/** /openhouses/schedule/{id}/edit (also where a clone opens). */
export function EditSchedulePage() {
  const { openHouseId } = editRoute.useParams()
  const { data: openHouse } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  return <SchedulePage key={openHouseId} mode="edit" openHouse={openHouse} />
}
