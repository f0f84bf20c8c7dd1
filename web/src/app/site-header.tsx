import { useLocation } from '@tanstack/react-router'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useSession } from '../features/session/use-session.ts'
import { useSignOut } from '../features/session/use-sign-out.ts'
import { BrandMark } from '../ui/BrandMark.tsx'
import { Button } from '../ui/Button.tsx'
import { Link } from '../ui/Link.tsx'
import { MENU_ICON_PATH, SIGNED_OUT_LINKS } from './menu-icon.ts'

/** SPEC §2 "Navigation and layout"; at 960 px or less the menu folds behind a toggle (CSS). */
export function SiteHeader() {
  const { isSignedIn, profile } = useSession()
  const signOut = useSignOut()
  const [open, setOpen] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const pathname = useLocation({ select: (location) => location.pathname })

  // A navigation closes the folded menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input
  useEffect(() => setOpen(false), [pathname])

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false)
      toggleRef.current?.focus()
    }
  }

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" variant="brand">
          <BrandMark className="logo" />
          Porchlight
        </Link>
        <nav aria-label="Main" className="site-nav" onKeyDown={closeOnEscape}>
          <Button
            ref={toggleRef}
            variant="ghost"
            className="site-nav__toggle"
            aria-label="Menu"
            aria-expanded={open}
            aria-controls="site-menu"
            onPress={() => setOpen((value) => !value)}
          >
            <MenuIcon open={open} />
          </Button>
          <ul id="site-menu" className="site-nav__menu" data-open={open || undefined}>
            {isSignedIn ? (
              <>
                <li>
                  <Link to="/dashboard" variant="nav">
                    Dashboard
                  </Link>
                </li>
                <li>
                  <Link to="/openhouses" variant="nav">
                    Open Houses
                  </Link>
                </li>
                <li>
                  <Link to="/mystuff" variant="nav">
                    My Stuff
                  </Link>
                </li>
                <li className="site-nav__welcome">
                  <Link to="/dashboard/userSettings" variant="nav">
                    {profile ? `Welcome, ${profile.reAgentFirstName}` : 'Welcome'}
                  </Link>
                </li>
                <li>
                  <form
                    method="post"
                    action="/signout"
                    onSubmit={(event) => {
                      event.preventDefault()
                      void signOut()
                    }}
                  >
                    <Button type="submit" variant="secondary" size="sm">
                      Sign Out
                    </Button>
                  </form>
                </li>
              </>
            ) : (
              SIGNED_OUT_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    variant={link.variant}
                    className={'className' in link ? link.className : undefined}
                  >
                    {link.label}
                  </Link>
                </li>
              ))
            )}
          </ul>
        </nav>
      </div>
    </header>
  )
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg className="icon icon--lg" viewBox="0 0 24 24" aria-hidden="true">
      <path d={open ? MENU_ICON_PATH.open : MENU_ICON_PATH.closed} />
    </svg>
  )
}
