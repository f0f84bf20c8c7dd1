import type { OpenHouseDetails } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '../../ui/Link.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { FullPropertyMap, type MapPoint } from '../maps/property-map-card.tsx'
import { useMapStyleUrl } from '../maps/use-map-style.ts'
import { useSessionInfo } from '../session/queries.ts'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import { openHouseListQueryOptions } from './queries.ts'
import { canSearchOpenHouses } from './sections.ts'
import { StatusBadge } from './status-badge.tsx'
import '../../ui/card-list.css'
import './open-houses.css'

const located = (oh: OpenHouseDetails) =>
  oh.reProperty.propertyLatitude !== null && oh.reProperty.propertyLongitude !== null

/**
 * SPEC /openhousemap: the agent's upcoming open houses and those offered to them, on one map where a
 * map style is configured; otherwise (maps off) the same open houses as a list of addresses.
 */
export function OpenHouseMapPage() {
  useDocumentTitle('Open House Map')
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const canSearch = canSearchOpenHouses(agent?.reAgentRole ?? '')
  const styleUrl = useMapStyleUrl()
  const mapsOn = Boolean(styleUrl)
  const upcoming = useSuspenseQuery(openHouseListQueryOptions('upcoming', agentId)).data
  const available =
    useQuery({ ...openHouseListQueryOptions('available', agentId), enabled: canSearch }).data ?? []
  const all = [...upcoming, ...available.filter((oh) => !upcoming.some((mine) => mine.id === oh.id))]
  // On a map only a property with coordinates can be shown; a list shows every address.
  const shown = mapsOn ? all.filter(located) : all
  const points: MapPoint[] = all.filter(located).map((oh) => ({
    id: oh.id,
    latitude: oh.reProperty.propertyLatitude as number,
    longitude: oh.reProperty.propertyLongitude as number,
    title: oh.reProperty.propertyAddress1,
    detail: `${scheduleDateText(oh)} · ${scheduleTimeText(oh)} · ${oh.status}`,
  }))
  const whose = `Your upcoming open houses${canSearch ? ' and the ones you can claim' : ''}`

  return (
    <section className="page open-houses" aria-labelledby="map-title">
      <header className="open-houses__header">
        <div>
          <h1 id="map-title">Open House Map</h1>
          <p className="lede">{mapsOn ? `${whose}, where they are.` : `${whose}, by address.`}</p>
        </div>
        <Link to="/openhouses" variant="button-secondary">
          Back to Open Houses
        </Link>
      </header>
      <FullPropertyMap label="Map of open houses" points={points} />
      {styleUrl === undefined ? null : shown.length === 0 ? (
        <p className="empty-state">
          {mapsOn
            ? 'No open houses with a map location yet. Add latitude and longitude to a property, or pick its address from the suggestions, to see it here.'
            : 'No upcoming open houses yet.'}
        </p>
      ) : (
        <ul
          className="map-page__list"
          aria-label={mapsOn ? 'Open houses on the map' : 'Open house addresses'}
        >
          {shown.map((oh) => (
            <li key={oh.id} className="map-page__item">
              <StatusBadge status={oh.status} />
              <span>
                <strong>
                  {mapsOn ? oh.reProperty.propertyAddress1 : oh.reProperty.completePropertyAddress}
                </strong>
                {mapsOn ? `, ${oh.reProperty.propertyCity}` : ''} · {scheduleDateText(oh)} ·{' '}
                {scheduleTimeText(oh)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
