/** SPEC §9 default map location and zoom, used when there is nothing to show or geolocation fails. */
export const DEFAULT_CENTER = { latitude: 34.0983808, longitude: -84.3022336 }
export const DEFAULT_ZOOM = 13

export interface MapPoint {
  id: number
  latitude: number
  longitude: number
  /** The street address, the marker's name. */
  title: string
  /** The whole address, for the list shown where no map style is configured. */
  address?: string
  /** One more line for the marker's popup (date, time, status). */
  detail?: string
}
