import 'maplibre-gl/dist/maplibre-gl.css'
import { LngLatBounds, Map as MapLibreMap, Marker, NavigationControl, Popup, setWorkerUrl } from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { useEffect, useRef, useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DEFAULT_CENTER, DEFAULT_ZOOM, type MapPoint } from './map-defaults.ts'

// maplibre-gl 6 inside a Vite build must be told where its worker is (DESIGN.md toolchain notes).
setWorkerUrl(workerUrl)

export interface PropertyMapProps {
  label: string
  points: MapPoint[]
  height: number
  /** Offer "Near me" (browser geolocation; on failure the SPEC's default location). */
  canLocate?: boolean
  /** The server's MAP_STYLE_URL: without one no map is drawn at all (callers list the addresses). */
  styleUrl: string
}

/** A maplibre map with one keyboard-reachable marker per property. Loaded lazily by its callers. */
export default function PropertyMap({
  label,
  points,
  height,
  canLocate = false,
  styleUrl,
}: PropertyMapProps) {
  const container = useRef<HTMLElement>(null)
  const mapRef = useRef<MapLibreMap | null>(null)
  const [failed, setFailed] = useState(false)
  const [authFailure, setAuthFailure] = useState(false)
  const [note, setNote] = useState<string | null>(null)

  useEffect(() => {
    if (!container.current) return
    let map: MapLibreMap
    try {
      map = new MapLibreMap({
        container: container.current,
        style: styleUrl,
        center: [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude],
        zoom: DEFAULT_ZOOM,
        attributionControl: false,
      })
    } catch {
      // No WebGL here (an old device, a locked-down browser): the list beside the map still has it all.
      setFailed(true)
      return
    }
    mapRef.current = map
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right')
    map.on('error', (event) => {
      // SPEC §8: a refused map key says so; any other failed tile load leaves the markers usable.
      const status = (event.error as { status?: number } | undefined)?.status
      if (status === 401 || status === 403) setAuthFailure(true)
    })
    return () => {
      mapRef.current = null
      map.remove()
    }
  }, [styleUrl])

  // The callers build `points` on every render; markers are redrawn only when what they show changes.
  const pointsKey = JSON.stringify(points)
  // biome-ignore lint/correctness/useExhaustiveDependencies: pointsKey stands for points' content.
  useEffect(() => {
    const map = mapRef.current
    if (!map) return
    const points: MapPoint[] = JSON.parse(pointsKey)
    const markers = points.map((point) => {
      const element = document.createElement('button')
      element.type = 'button'
      element.className = 'map-marker'
      element.setAttribute('aria-label', point.detail ? `${point.title}, ${point.detail}` : point.title)
      // maplibre positions the marker with an inline transform; the pin's own shape sits inside.
      const pin = document.createElement('span')
      pin.className = 'map-marker__pin'
      pin.setAttribute('aria-hidden', 'true')
      element.append(pin)
      const popup = new Popup({ offset: 18, closeButton: true, focusAfterOpen: false })
      const content = document.createElement('div')
      const title = document.createElement('strong')
      title.textContent = point.title
      content.append(title)
      if (point.detail) {
        const detail = document.createElement('p')
        detail.textContent = point.detail
        content.append(detail)
      }
      popup.setDOMContent(content)
      return new Marker({ element, anchor: 'bottom' })
        .setLngLat([point.longitude, point.latitude])
        .setPopup(popup)
        .addTo(map)
    })
    if (points.length === 1 && points[0]) {
      map.jumpTo({ center: [points[0].longitude, points[0].latitude], zoom: DEFAULT_ZOOM })
    } else if (points.length > 1) {
      const bounds = new LngLatBounds()
      for (const point of points) bounds.extend([point.longitude, point.latitude])
      map.fitBounds(bounds, { padding: 48, maxZoom: 15, animate: false })
    }
    return () => {
      for (const marker of markers) marker.remove()
    }
  }, [pointsKey, failed])

  const locate = () => {
    const map = mapRef.current
    const fallback = () => {
      setNote('Your location is not available; showing the default area.')
      map?.flyTo({ center: [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude], zoom: DEFAULT_ZOOM })
    }
    if (!navigator.geolocation) return fallback()
    setNote(null)
    navigator.geolocation.getCurrentPosition(
      (position) =>
        map?.flyTo({ center: [position.coords.longitude, position.coords.latitude], zoom: DEFAULT_ZOOM }),
      fallback,
      { timeout: 10_000 },
    )
  }

  if (failed) {
    return (
      <Alert tone="info" title="The map can't be shown in this browser.">
        {points.length > 0
          ? `${points.length} properties are listed on this page.`
          : 'There is nothing to show yet.'}
      </Alert>
    )
  }
  return (
    <div className="property-map">
      {canLocate && (
        <div className="property-map__tools">
          <Button size="sm" onPress={locate}>
            Near me
          </Button>
          {note && (
            <p role="status" className="property-map__note">
              {note}
            </p>
          )}
        </div>
      )}
      <section ref={container} className="property-map__canvas" style={{ height }} aria-label={label} />
      {authFailure && <p className="property-map__caption">Error: AuthFailure</p>}
    </div>
  )
}
