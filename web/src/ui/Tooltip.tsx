import type { ReactElement } from 'react'
import { Tooltip as AriaTooltip, TooltipTrigger } from 'react-aria-components'
import './Tooltip.css'

export interface TooltipProps {
  content: string
  /** One focusable element (a Button, or a span wrapped in Focusable). */
  children: ReactElement
}

/** Shows `content` on hover or keyboard focus of its child. */
export function Tooltip({ content, children }: TooltipProps) {
  return (
    <TooltipTrigger delay={300}>
      {children}
      <AriaTooltip className="tooltip" offset={8}>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  )
}
