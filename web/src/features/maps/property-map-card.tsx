import { lazy, Suspense } from 'react'
import { Spinner } from '../../ui/Spinner.tsx'
import type { MapPoint } from './map-defaults.ts'
import { useMapStyleUrl } from './use-map-style.ts'
import './maps.css'

export type { MapPoint }

// maplibre-gl is large: it loads only when a map is actually shown (DESIGN.md "Front end").
const PropertyMap = lazy(() => import('./property-map.tsx'))

/**
 * SPEC §9: a map inside a card is 300 px high. With no map style configured there is no map: the
 * addresses are listed instead.
 */
export function PropertyMapCard({ label, points }: { label: string; points: MapPoint[] }) {
  const styleUrl = useMapStyleUrl()
  if (styleUrl === undefined) return null
  if (styleUrl === null)
    return <AddressList label={label.replace(/^Map of /, 'Addresses in ')} points={points} />
  return (
    <section className="card map-card" aria-label={label}>
      <Suspense fallback={<MapPending height={300} />}>
        <PropertyMap label={label} points={points} height={300} styleUrl={styleUrl} />
      </Suspense>
    </section>
  )
}

/** SPEC §9: a full map is 600 px high; nothing at all without a map style (the page lists the addresses). */
export function FullPropertyMap({ label, points }: { label: string; points: MapPoint[] }) {
  const styleUrl = useMapStyleUrl()
  if (!styleUrl) return null
  return (
    <div className="card map-page__map">
      <Suspense fallback={<MapPending height={600} />}>
        <PropertyMap label={label} points={points} height={600} canLocate styleUrl={styleUrl} />
      </Suspense>
    </div>
  )
}

function AddressList({ label, points }: { label: string; points: MapPoint[] }) {
  return (
    <section className="card address-list" aria-label={label}>
      <h2 className="address-list__title">{label}</h2>
      <ul className="address-list__items">
        {points.map((point) => (
          <li key={point.id}>
            <strong>{point.address ?? point.title}</strong>
            {point.detail && <span className="address-list__detail"> · {point.detail}</span>}
          </li>
        ))}
      </ul>
    </section>
  )
}

function MapPending({ height }: { height: number }) {
  return (
    <div className="map-pending" style={{ height }}>
      <Spinner label="Loading map…" />
    </div>
  )
}
