import { useAnnouncement } from './bridge.ts'

/**
 * The polite live region that reads out live changes (a claimed or newly offered open house, a guest
 * signing in on the board, new feedback). It is always in the page, empty until something happens,
 * so screen readers pick up each new text.
 */
export function LiveAnnouncer() {
  const { text, n } = useAnnouncement()
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="visually-hidden">
      {text && <p key={n}>{text}</p>}
    </div>
  )
}
