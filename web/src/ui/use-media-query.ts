import { useSyncExternalStore } from 'react'

/** Whether a CSS media query matches now, re-rendering when that changes (e.g. the 960 px breakpoint). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', listener)
      return () => list.removeEventListener('change', listener)
    },
    () => window.matchMedia(query).matches,
  )
}

/** SPEC §9: screens 960 px wide or less get the narrow layout. */
export const NARROW_SCREEN = '(max-width: 960px)'
