/** The header's menu toggle, folded and unfolded: SiteHeader, and the prerendered landing page's script. */
export const MENU_ICON_PATH = { closed: 'M4 7h16M4 12h16M4 17h16', open: 'M6 6l12 12M18 6 6 18' }

/** The signed-out menu, in order: SiteHeader, and the prerendered landing page. */
export const SIGNED_OUT_LINKS = [
  { to: '/pricingplans', label: 'Pricing', variant: 'nav' },
  { to: '/signup', label: 'Sign Up', variant: 'nav' },
  { to: '/signin', label: 'Sign In', variant: 'button-primary', className: 'site-nav__cta' },
] as const
