import type { ReactNode } from 'react'
import {
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  type MenuItemProps as AriaMenuItemProps,
  MenuTrigger,
  Popover,
  Text,
} from 'react-aria-components'
import { Button, type ButtonVariant } from './Button.tsx'
import { cx } from './cx.ts'
import './Menu.css'

export interface MenuButtonProps {
  /** The trigger's text, e.g. 'Actions'. */
  label: ReactNode
  /** Names the menu for screen readers when the label alone would not; it starts with the label. */
  'aria-label'?: string
  variant?: ButtonVariant
  size?: 'md' | 'sm'
  /** An action chosen from the menu is running: the trigger shows progress. */
  isPending?: boolean
  className?: string
  children: ReactNode
}

/**
 * A button opening a menu of actions (arrow keys move, Enter chooses, Escape closes and focus returns
 * to the button). Its items are MenuItems: `onAction` runs one, `href` navigates through the router.
 */
export function MenuButton({
  label,
  variant = 'secondary',
  size = 'md',
  isPending,
  className,
  children,
  ...aria
}: MenuButtonProps) {
  return (
    <MenuTrigger>
      <Button
        variant={variant}
        size={size}
        isPending={isPending}
        className={cx('menu-button', className)}
        aria-label={aria['aria-label']}
      >
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

export interface MenuItemProps extends Omit<AriaMenuItemProps, 'children'> {
  children: ReactNode
  /** A second line under the label, e.g. why the item cannot be chosen now; read as its description. */
  description?: string
  tone?: 'danger'
}

export function MenuItem({ className, children, description, tone, ...props }: MenuItemProps) {
  const textValue = props.textValue ?? (typeof children === 'string' ? children : undefined)
  return (
    <AriaMenuItem
      {...props}
      textValue={textValue}
      className={cx(
        'menu__item',
        tone && `menu__item--${tone}`,
        typeof className === 'string' ? className : undefined,
      )}
    >
      {description ? (
        <>
          <Text slot="label">{children}</Text>
          <Text slot="description" className="menu__description">
            {description}
          </Text>
        </>
      ) : (
        children
      )}
    </AriaMenuItem>
  )
}
