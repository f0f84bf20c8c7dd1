import type { OpenHouseDetails } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '../../ui/Link.tsx'
import { useDocumentTitle } from '../layout/use-document-title.ts'
import { FullPropertyMap, type MapPoint } from '../maps/property-map-card.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import { openHouseListQueryOptions } from './queries.ts'
import { canSearchOpenHouses } from './sections.ts'
import { StatusBadge } from './status-badge.tsx'
import './open-houses.css'

/** SPEC /openhousemap: the agent's upcoming open houses and those offered to them, on one map. */
export function OpenHouseMapPage() {
  useDocumentTitle('Open House Map')
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const canSearch = canSearchOpenHouses(agent?.reAgentRole ?? '')
  const upcoming = useSuspenseQuery(openHouseListQueryOptions('upcoming', agentId)).data
  const available =
    useQuery({ ...openHouseListQueryOptions('available', agentId), enabled: canSearch }).data ?? []
  const all = [...upcoming, ...available.filter((oh) => !upcoming.some((mine) => mine.id === oh.id))]
  const located = all.filter(
    (oh) => oh.reProperty.propertyLatitude !== null && oh.reProperty.propertyLongitude !== null,
  )
  const points: MapPoint[] = located.map((oh) => ({
    id: oh.id,
    latitude: oh.reProperty.propertyLatitude as number,
    longitude: oh.reProperty.propertyLongitude as number,
    title: oh.reProperty.propertyAddress1,
    detail: `${scheduleDateText(oh)} · ${scheduleTimeText(oh)} · ${oh.status}`,
  }))

  return (
    <section className="page open-houses" aria-labelledby="map-title">
      <header className="open-houses__header">
        <div>
          <h1 id="map-title">Open House Map</h1>
          <p className="lede">
            Your upcoming open houses{canSearch ? ' and the ones you can claim' : ''}, where they are.
          </p>
        </div>
        <Link to="/openhouses" variant="button-secondary">
          Back to Open Houses
        </Link>
      </header>
      <div className="card map-page__map">
        <FullPropertyMap label="Map of open houses" points={points} />
      </div>
      {located.length === 0 ? (
        <p className="empty-state">
          No open houses with a map location yet. Add latitude and longitude to a property, or pick its
          address from the suggestions, to see it here.
        </p>
      ) : (
        <ul className="map-page__list" aria-label="Open houses on the map">
          {located.map((oh: OpenHouseDetails) => (
            <li key={oh.id} className="map-page__item">
              <StatusBadge status={oh.status} />
              <span>
                <strong>{oh.reProperty.propertyAddress1}</strong>, {oh.reProperty.propertyCity} ·{' '}
                {scheduleDateText(oh)} · {scheduleTimeText(oh)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
