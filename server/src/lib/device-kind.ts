import type { CaptureDevice } from '../db/types.ts'

/**
 * The kind of device a guest signed in on, from its User-Agent: a kiosk (the host's station) when the
 * page says so, else a tablet, a phone or a computer. Only a count in the capture receipt rests on it.
 */
export function deviceKind(userAgent: string | undefined, kiosk: boolean): CaptureDevice {
  if (kiosk) return 'kiosk'
  const ua = userAgent ?? ''
  if (/iPad|Tablet|PlayBook|Silk|Kindle/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua)))
    return 'tablet'
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(ua)) return 'phone'
  return 'computer'
}
