import type { MouseEvent } from 'react'

/**
 * The first stop for keyboard users. Focus is moved by hand: a hash change would go through the
 * router, which keeps focus where it was.
 */
export function SkipLink({ targetId, children }: { targetId: string; children: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId)
    if (!target) return
    event.preventDefault()
    target.focus()
    target.scrollIntoView({ block: 'start' })
  }
  return (
    <a className="skip-link" href={`#${targetId}`} onClick={skip}>
      {children}
    </a>
  )
}
