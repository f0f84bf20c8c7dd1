import type { AddressSuggestion } from '@porchlight/shared'
import { ServiceUnavailableError } from '../../errors.ts'

/**
 * A Nominatim-compatible provider (`GEOCODER_URL` answers `?q=&format=jsonv2&addressdetails=1&countrycodes=us,ca`):
 * results are restricted to the United States and Canada and shaped as property-form fields.
 */
interface NominatimPlace {
  display_name: string
  lat: string
  lon: string
  address: Record<string, string | undefined>
}

const COUNTRIES: Record<string, 'United States' | 'Canada'> = { us: 'United States', ca: 'Canada' }

function toSuggestion(place: NominatimPlace): AddressSuggestion | null {
  const a = place.address
  const country = COUNTRIES[(a.country_code ?? '').toLowerCase()]
  if (!country) return null
  const [zip, plus4] = (a.postcode ?? '').split('-')
  return {
    label: place.display_name,
    propertyAddress1:
      [a.house_number, a.road].filter(Boolean).join(' ') || place.display_name.split(',')[0] || '',
    propertyAddress2: null,
    propertyCity: a.city ?? a.town ?? a.village ?? a.hamlet ?? '',
    propertyState: a.state ?? '',
    propertyCounty: a.county ?? '',
    propertyZipCode: zip ?? '',
    propertyZipPlus4: plus4 ?? null,
    propertyCountry: country,
    propertyLatitude: Number(place.lat),
    propertyLongitude: Number(place.lon),
  }
}

export function createGeocoder(url: string | undefined) {
  return {
    configured: Boolean(url),
    async search(q: string): Promise<AddressSuggestion[]> {
      if (!url) return []
      const target = new URL(url)
      target.searchParams.set('q', q)
      target.searchParams.set('format', 'jsonv2')
      target.searchParams.set('addressdetails', '1')
      target.searchParams.set('countrycodes', 'us,ca')
      target.searchParams.set('limit', '5')
      let res: Response
      try {
        res = await fetch(target, {
          signal: AbortSignal.timeout(4000),
          headers: { 'user-agent': 'Porchlight' },
        })
      } catch {
        throw new ServiceUnavailableError(
          'GEOCODER_UNAVAILABLE',
          'Address lookup is not answering; enter the address by hand',
        )
      }
      if (!res.ok) {
        throw new ServiceUnavailableError(
          'GEOCODER_UNAVAILABLE',
          'Address lookup is not answering; enter the address by hand',
        )
      }
      const places = (await res.json()) as NominatimPlace[]
      return places.map(toSuggestion).filter((s): s is AddressSuggestion => s !== null)
    },
  }
}
