import { type MouseEvent, useSyncExternalStore } from 'react'

// The guest app's own tiny router: five SPEC URLs under /public/OpenHouseToday need no more than
// pathname + query and the History API (TanStack Router would cost the light chunk ~20 KB gzipped).

const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}
window.addEventListener('popstate', () => {
  navigated = true
  notify()
})

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The current URL's path and query, re-rendering on every navigation. */
export function useGuestLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, () => window.location.pathname + window.location.search)
  const at = href.indexOf('?')
  return at < 0 ? { pathname: href, search: '' } : { pathname: href.slice(0, at), search: href.slice(at) }
}

let navigated = false
/** Whether this visit has moved between guest pages (the first page keeps the browser's focus). */
export const hasNavigated = () => navigated

export function navigate(href: string, { replace = false } = {}) {
  navigated = true
  if (replace) window.history.replaceState(null, '', href)
  else window.history.pushState(null, '', href)
  window.scrollTo(0, 0)
  notify()
}

/** For an <a>: navigates in the app unless the user asked for a new tab or window. */
export function followLink(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(event.currentTarget.getAttribute('href') ?? '/')
}

/** The query every guest page passes on (SPEC §2 public routes). */
export interface GuestQuery {
  openHouseId: number | null
  rePropertyId: number | null
  reAgentId: number | null
  /** SPEC's name; its value is the id the sign-in answered, the visit's (decision 029). */
  prospectId: number | null
  from: string | null
}

const id = (value: string | null) => {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : null
}

export function parseGuestQuery(search: string): GuestQuery {
  const q = new URLSearchParams(search)
  return {
    openHouseId: id(q.get('openHouseId')),
    rePropertyId: id(q.get('rePropertyId')),
    reAgentId: id(q.get('reAgentId')),
    prospectId: id(q.get('prospectId')),
    from: q.get('from'),
  }
}

export const GUEST_BASE = '/public/OpenHouseToday'

/** A guest page URL carrying the given query (empty values left out). */
export function guestHref(path: string, query: Partial<GuestQuery>): string {
  const q = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== '') q.set(key, String(value))
  }
  const text = q.toString()
  return `${GUEST_BASE}${path}${text ? `?${text}` : ''}`
}
