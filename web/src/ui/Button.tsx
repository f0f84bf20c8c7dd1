import type { Ref } from 'react'
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
