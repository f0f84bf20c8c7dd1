import { createLink, type LinkComponent } from '@tanstack/react-router'
import { forwardRef } from 'react'
import { Link as AriaLink, type LinkProps as AriaLinkProps, composeRenderProps } from 'react-aria-components'
import { cx } from './cx.ts'
import './Button.css'
import './Link.css'

export type LinkVariant = 'inline' | 'nav' | 'brand' | 'button-primary' | 'button-secondary'

interface StyledLinkProps extends AriaLinkProps {
  /** inline = underlined text link; nav = header menu item; button-* = a call to action that looks like a button. */
  variant?: LinkVariant
}

const StyledLink = forwardRef<HTMLAnchorElement, StyledLinkProps>(function StyledLink(
  { variant = 'inline', className, ...props },
  ref,
) {
  return (
    <AriaLink
      {...props}
      ref={ref}
      className={composeRenderProps(className, (extra) => cx('link', `link--${variant}`, extra))}
    />
  )
})

const RouterLink = createLink(StyledLink)

/**
 * A link to a path that has no route in this build yet (a SPEC URL another change adds). It still
 * navigates inside the app through react-aria's RouterProvider (see AppShell), so it needs no reload.
 * Switch to `Link` with `to` once the route exists, to get type checking and preloading.
 */
export const HrefLink = StyledLink

/**
 * A react-aria link that navigates with TanStack Router: typed `to`/`params`/`search`,
 * preloads the target route on hover or focus, and marks the current page with aria-current.
 */
export const Link: LinkComponent<typeof StyledLink> = (props) => <RouterLink preload="intent" {...props} />
