import { lazy, Suspense } from 'react'
import { Spinner } from '../../ui/Spinner.tsx'
import type { MapPoint } from './map-defaults.ts'
import './maps.css'

export type { MapPoint }

// maplibre-gl is large: it loads only when a map is actually shown (DESIGN.md "Front end").
const PropertyMap = lazy(() => import('./property-map.tsx'))

/** SPEC §9: a map inside a card is 300 px high. */
export function PropertyMapCard({ label, points }: { label: string; points: MapPoint[] }) {
  return (
    <section className="card map-card" aria-label={label}>
      <Suspense fallback={<MapPending height={300} />}>
        <PropertyMap label={label} points={points} height={300} />
      </Suspense>
    </section>
  )
}

/** SPEC §9: a full map is 600 px high. */
export function FullPropertyMap({ label, points }: { label: string; points: MapPoint[] }) {
  return (
    <Suspense fallback={<MapPending height={600} />}>
      <PropertyMap label={label} points={points} height={600} canLocate />
    </Suspense>
  )
}

function MapPending({ height }: { height: number }) {
  return (
    <div className="map-pending" style={{ height }}>
      <Spinner label="Loading map…" />
    </div>
  )
}
