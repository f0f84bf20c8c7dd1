import { useLiveToasts } from './bridge.ts'
import './live.css'

/**
 * What changed live (a claimed or newly offered open house, a cancel or an edit, a guest signing in
 * on the board, new feedback): a toast for a few seconds, in a polite live region that is always in
 * the page, so screen readers read each new one too.
 */
export function LiveAnnouncer() {
  const toasts = useLiveToasts()
  return (
    <div role="status" aria-live="polite" className="live-toasts">
      {toasts.map((toast) => (
        <p key={toast.id} className="live-toasts__toast">
          {toast.text}
        </p>
      ))}
    </div>
  )
}
