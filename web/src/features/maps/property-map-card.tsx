import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { Spinner } from '../../ui/Spinner.tsx'
import type { MapPoint } from './map-defaults.ts'
import './maps.css'

export type { MapPoint }

// maplibre-gl is large: it loads only when a map is actually shown (DESIGN.md "Front end").
const PropertyMap = lazy(() => import('./property-map.tsx'))

const AppConfig = z.object({ mapStyleUrl: z.string().nullable() })

/** The server's MAP_STYLE_URL (SPEC §7: the map's key comes from configuration); none means markers only. */
function useMapStyleUrl(): string | undefined {
  const config = useQuery({
    queryKey: ['public', 'appConfig'],
    queryFn: () => apiRequest('/public/appConfig', { schema: AppConfig, auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return config.data?.mapStyleUrl ?? undefined
}

/** SPEC §9: a map inside a card is 300 px high. */
export function PropertyMapCard({ label, points }: { label: string; points: MapPoint[] }) {
  const styleUrl = useMapStyleUrl()
  return (
    <section className="card map-card" aria-label={label}>
      <Suspense fallback={<MapPending height={300} />}>
        <PropertyMap label={label} points={points} height={300} styleUrl={styleUrl} />
      </Suspense>
    </section>
  )
}

/** SPEC §9: a full map is 600 px high. */
export function FullPropertyMap({ label, points }: { label: string; points: MapPoint[] }) {
  const styleUrl = useMapStyleUrl()
  return (
    <Suspense fallback={<MapPending height={600} />}>
      <PropertyMap label={label} points={points} height={600} canLocate styleUrl={styleUrl} />
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
