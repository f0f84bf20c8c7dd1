/** The header's menu toggle, folded and unfolded: SiteHeader, and the prerendered landing page's script. */
export const MENU_ICON_PATH = { closed: 'M4 7h16M4 12h16M4 17h16', open: 'M6 6l12 12M18 6 6 18' }
