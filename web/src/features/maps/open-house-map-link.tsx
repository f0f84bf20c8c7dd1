import { Link } from '../../ui/Link.tsx'
import { useMapStyleUrl } from './use-map-style.ts'

/** The way to /openhousemap from Open Houses: only when maps are on (a map style is configured). */
export function OpenHouseMapLink() {
  const styleUrl = useMapStyleUrl()
  if (!styleUrl) return null
  return (
    <Link to="/openhousemap" variant="button-secondary">
      Open House Map
    </Link>
  )
}
