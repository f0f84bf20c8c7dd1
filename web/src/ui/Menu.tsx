import type { ReactNode } from 'react'
import {
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  type MenuItemProps as AriaMenuItemProps,
  MenuTrigger,
  Popover,
} from 'react-aria-components'
import { Button, type ButtonVariant } from './Button.tsx'
import { cx } from './cx.ts'
import './Menu.css'

export interface MenuButtonProps {
  /** The trigger's text, e.g. 'Actions'. */
  label: ReactNode
  /** Names the menu for screen readers when the label alone would not. */
  'aria-label'?: string
  variant?: ButtonVariant
  className?: string
  children: ReactNode
}

/**
 * A button opening a menu of actions (arrow keys move, Enter chooses, Escape closes and focus returns
 * to the button). Its items are MenuItems: `onAction` runs one, `href` navigates through the router.
 */
export function MenuButton({ label, variant = 'secondary', className, children, ...aria }: MenuButtonProps) {
  return (
    <MenuTrigger>
      <Button variant={variant} className={cx('menu-button', className)} aria-label={aria['aria-label']}>
        {label}
        <svg className="icon menu-button__chevron" viewBox="0 0 20 20" aria-hidden="true">
          <path d="m5 8 5 5 5-5" />
        </svg>
      </Button>
      <Popover className="menu-popover" placement="bottom end">
        <AriaMenu className="menu">{children}</AriaMenu>
      </Popover>
    </MenuTrigger>
  )
}

export function MenuItem({ className, ...props }: AriaMenuItemProps) {
  return (
    <AriaMenuItem
      {...props}
      className={cx('menu__item', typeof className === 'string' ? className : undefined)}
    />
  )
}
