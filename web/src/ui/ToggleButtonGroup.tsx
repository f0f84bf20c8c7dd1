import {
  ToggleButton as AriaToggleButton,
  ToggleButtonGroup as AriaToggleButtonGroup,
  type ToggleButtonGroupProps as AriaToggleButtonGroupProps,
  type ToggleButtonProps as AriaToggleButtonProps,
  composeRenderProps,
} from 'react-aria-components'
import { cx } from './cx.ts'
import './ToggleButtonGroup.css'

/**
 * A segmented control. With selectionMode="single" react-aria exposes it as a radiogroup
 * whose buttons are radios, so give the group an aria-label.
 */
export function ToggleButtonGroup({ className, ...props }: AriaToggleButtonGroupProps) {
  return (
    <AriaToggleButtonGroup
      {...props}
      className={composeRenderProps(className, (extra) => cx('toggle-group', extra))}
    />
  )
}

export function ToggleButton({ className, ...props }: AriaToggleButtonProps) {
  return (
    <AriaToggleButton
      {...props}
      className={composeRenderProps(className, (extra) => cx('toggle-group__button', extra))}
    />
  )
}
