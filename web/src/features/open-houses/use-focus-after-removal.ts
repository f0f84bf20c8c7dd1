import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from 'react'

/** How long after a card leaves focus may still fall to <body> (a dialog closing over the gap). */
const WATCH_MS = 2_000

/**
 * When an open house leaves the list (claimed, withdrawn, canceled, or taken live by someone else)
 * while focus was in its card or row, or in a dialog opened from it, focus would fall to <body>.
 * It moves instead to the primary action of the card that took its place (or the one before), else
 * to the list's empty-state message, else its count. Returns a check to run when a dialog
 * of the list closes, since focus only falls then.
 */
export function useFocusAfterRemoval(container: RefObject<HTMLElement | null>, ids: number[]) {
  const lastFocused = useRef<number | null>(null)
  const previousIds = useRef(ids)
  const orphan = useRef<{ index: number; until: number } | null>(null)
  const watching = useRef(false)

  useEffect(() => {
    const element = container.current
    if (!element) return
    const onFocusIn = (event: FocusEvent) => {
      const owner = event.target instanceof Element ? event.target.closest('[data-open-house-id]') : null
      // Focus back in the list settles it; elsewhere in the list (the toolbar) forgets the card, while
      // a dialog opened from the card (outside the list) does not.
      lastFocused.current = owner ? Number(owner.getAttribute('data-open-house-id')) : null
      orphan.current = null
    }
    element.addEventListener('focusin', onFocusIn)
    return () => element.removeEventListener('focusin', onFocusIn)
  }, [container])

  const restore = useCallback(() => {
    const active = document.activeElement
    if (active && active !== document.body && active.isConnected) return false
    const element = container.current
    const lost = orphan.current
    if (!element || !lost) return true
    orphan.current = null
    const actions = [...element.querySelectorAll<HTMLElement>('[data-open-house-id] .oh-actions__primary')]
    const target =
      actions[Math.min(lost.index, actions.length - 1)] ??
      element.querySelector<HTMLElement>('[data-focus-fallback="empty"]') ??
      element.querySelector<HTMLElement>('[data-focus-fallback]')
    target?.focus()
    return true
  }, [container])

  /**
   * Watches focus for a while, a frame at a time: a dialog keeps it until its exit animation ends,
   * and React Aria's try to give it back to the removed card leaves it on <body> only then.
   */
  const restoreSoon = useCallback(() => {
    const lost = orphan.current
    if (!lost) return
    lost.until = Date.now() + WATCH_MS
    if (watching.current) return
    const tick = () => {
      const now = orphan.current
      watching.current = !(now === null || restore() || Date.now() > now.until)
      if (watching.current) requestAnimationFrame(tick)
    }
    tick()
  }, [restore])

  useLayoutEffect(() => {
    const before = previousIds.current
    previousIds.current = ids
    const id = lastFocused.current
    if (id === null || ids.includes(id) || !before.includes(id)) return
    // Counting the cards before it that stayed, the one now at its index is the one after it.
    const index = before.slice(0, before.indexOf(id)).filter((other) => ids.includes(other)).length
    orphan.current = { index, until: Date.now() + WATCH_MS }
    lastFocused.current = null
  }, [ids])

  useEffect(() => {
    if (orphan.current) restoreSoon()
  })

  return restoreSoon
}
