import { renderToStaticMarkup } from 'react-dom/server'
import { MENU_ICON_PATH, SIGNED_OUT_LINKS } from '../../app/menu-icon.ts'
import { BrandMark } from '../../ui/BrandMark.tsx'
import { SkipLink } from '../../ui/SkipLink.tsx'
import { Landing, type LandingLinkProps } from './landing.tsx'

/**
 * The landing page as HTML, rendered at build time (build/landing-page.ts) into landing.html, which
 * the server sends for /: a visitor's phone draws it from the first download, without the agent app.
 * The same Landing as the app's / route, around the signed-out shell of AppShell and SiteHeader (the
 * menu's links are one list, SIGNED_OUT_LINKS);
 * landing-main.ts makes the folded menu work and hands the page to the app for a signed-in agent.
 */
export function renderLandingPage(): string {
  return renderToStaticMarkup(<LandingPage />)
}

function LandingPage() {
  return (
    <div className="app">
      <SkipLink targetId="main">Skip to main content</SkipLink>
      <header className="site-header">
        <div className="site-header__inner">
          <a href="/" className="link link--brand" aria-current="page">
            <BrandMark className="logo" />
            Porchlight
          </a>
          <nav aria-label="Main" className="site-nav">
            <button
              type="button"
              className="button button--ghost site-nav__toggle"
              aria-label="Menu"
              aria-expanded="false"
              aria-controls="site-menu"
            >
              <svg className="icon icon--lg" viewBox="0 0 24 24" aria-hidden="true">
                <path d={MENU_ICON_PATH.closed} />
              </svg>
            </button>
            <ul id="site-menu" className="site-nav__menu">
              {SIGNED_OUT_LINKS.map((link) => (
                <li key={link.to}>
                  <a
                    href={link.to}
                    className={['link', `link--${link.variant}`, 'className' in link ? link.className : '']
                      .join(' ')
                      .trim()}
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="app__main" tabIndex={-1}>
        <Landing Link={PlainLink} />
      </main>
      <footer className="app__footer">
        <p>© Porchlight · Open houses that bring clients home.</p>
      </footer>
    </div>
  )
}

function PlainLink({ to, variant = 'inline', children }: LandingLinkProps) {
  return (
    <a href={to} className={`link link--${variant}`}>
      {children}
    </a>
  )
}
