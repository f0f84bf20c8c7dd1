import { type ReactNode, useId } from 'react'
import { Focusable } from 'react-aria-components'
import { cx } from './cx.ts'
import type { LinkVariant } from './Link.tsx'
import { Tooltip } from './Tooltip.tsx'
import './Button.css'
import './Link.css'

export interface DisabledLinkProps {
  variant?: LinkVariant
  className?: string
  /** Why it cannot be followed now: a tooltip on hover and focus, and its accessible description. */
  reason: string
  children: ReactNode
}

/**
 * A link that cannot be followed right now. Unlike a disabled control it stays in the tab order, so
 * keyboard and screen-reader users meet it and hear why (SPEC §2 'Upgrade your plan …').
 */
export function DisabledLink({ variant = 'inline', className, reason, children }: DisabledLinkProps) {
  const reasonId = useId()
  return (
    <>
      <Tooltip content={reason}>
        <Focusable>
          {/* biome-ignore lint/a11y/useSemanticElements: a disabled link has no href; role="link" keeps its name. */}
          <span
            role="link"
            aria-disabled="true"
            aria-describedby={reasonId}
            tabIndex={0}
            className={cx('link', `link--${variant}`, 'link--disabled', className)}
          >
            {children}
          </span>
        </Focusable>
      </Tooltip>
      <span id={reasonId} hidden>
        {reason}
      </span>
    </>
  )
}
