import { type ReactNode, useId } from 'react'
import { Focusable } from 'react-aria-components'
import { cx } from './cx.ts'
import { Tooltip } from './Tooltip.tsx'
import './Button.css'

export interface DisabledButtonProps {
  variant?: 'primary' | 'secondary' | 'ghost'
  size?: 'md' | 'sm'
  className?: string
  /** Why it cannot be used now: a tooltip on hover and focus, and its accessible description. */
  reason: string
  children: ReactNode
}

/**
 * A button that cannot be pressed right now. Unlike a disabled button it stays in the tab order, so
 * keyboard and screen-reader users meet it and hear why (e.g. Clone with auto-clone on).
 */
export function DisabledButton({
  variant = 'secondary',
  size = 'md',
  className,
  reason,
  children,
}: DisabledButtonProps) {
  const reasonId = useId()
  return (
    <>
      <Tooltip content={reason}>
        <Focusable>
          {/* biome-ignore lint/a11y/useSemanticElements: a native disabled button could not be focused to hear why. */}
          <span
            role="button"
            aria-disabled="true"
            aria-describedby={reasonId}
            tabIndex={0}
            data-disabled=""
            className={cx(
              'button',
              `button--${variant}`,
              size === 'sm' && 'button--sm',
              'button--inert',
              className,
            )}
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
