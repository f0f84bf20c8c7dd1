import { type Ref, useEffect } from 'react'
import {
  Button as AriaButton,
  type ButtonProps as AriaButtonProps,
  composeRenderProps,
} from 'react-aria-components'
import { cx } from './cx.ts'
import './Button.css'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost'

export interface ButtonProps extends AriaButtonProps {
  /** primary = the one amber action of a view; secondary = bordered; ghost = quiet, for toolbars and menus. */
  variant?: ButtonVariant
  size?: 'md' | 'sm'
  ref?: Ref<HTMLButtonElement>
}

export function Button({ variant = 'secondary', size = 'md', className, children, ...props }: ButtonProps) {
  useEffect(() => sweepOrphanAnnouncementsLater, [])
  return (
    <AriaButton
      {...props}
      className={composeRenderProps(className, (extra) =>
        cx('button', `button--${variant}`, size === 'sm' && 'button--sm', extra),
      )}
    >
      {composeRenderProps(children, (content, { isPending }) => (
        <>
          {isPending && <span className="button__spinner" aria-hidden="true" />}
          {content}
        </>
      ))}
    </AriaButton>
  )
}

/**
 * A focused button going pending (or done) is announced by a live-region entry that points at the
 * button, role="img" aria-labelledby its id, which React Aria keeps for 7 s. When the button leaves
 * first (a Save that navigates away), the entry is an image without a name until then; React Aria may
 * even add it after the button left (its first announcement of a page comes 100 ms late). So entries
 * whose labels are all gone leave when a button unmounts and whenever the announcer changes.
 */
let announcerWatch: MutationObserver | undefined
function sweepOrphanAnnouncementsLater() {
  sweepOrphanAnnouncements()
  if (announcerWatch || typeof MutationObserver === 'undefined') return
  // The announcer is added to <body> on React Aria's first announcement: watch <body>'s children
  // for it, and the announcer's whole tree once it is there (never the rest of the page).
  const watchAnnouncer = () => {
    const announcer = document.querySelector('[data-live-announcer]')
    if (announcer && !watched.has(announcer)) {
      watched.add(announcer)
      announcerWatch?.observe(announcer, { childList: true, subtree: true })
    }
  }
  const watched = new WeakSet<Element>()
  announcerWatch = new MutationObserver(() => {
    watchAnnouncer()
    sweepOrphanAnnouncements()
  })
  announcerWatch.observe(document.body, { childList: true })
  watchAnnouncer()
}

function sweepOrphanAnnouncements() {
  for (const entry of document.querySelectorAll('[data-live-announcer] [role="img"][aria-labelledby]')) {
    const ids = (entry.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)
    if (!ids.some((id) => document.getElementById(id)?.textContent?.trim())) entry.remove()
  }
}
