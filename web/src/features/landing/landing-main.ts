// The prerendered landing page's only script (landing.html, put into the page by build/inline-page.ts):
// the folded menu at phone width, and the agent app for a signed-in agent. Its styles come with it.
import '../../ui/tokens.css'
import '../../ui/styles.css'
import '../../ui/Button.css'
import '../../ui/Link.css'
import '../../app/app-shell.css'
import './landing.css'
import './landing-page.css'
import { TOKEN_KEY } from '../../api/storage-keys.ts'
import { MENU_ICON_PATH } from '../../app/menu-icon.ts'

/** The agent app's files (its index.html's), written into the page by build/landing-page.ts. */
interface AgentApp {
  scripts: string[]
  styles: string[]
}

function isSignedIn(): boolean {
  try {
    return Boolean(localStorage.getItem(TOKEN_KEY))
  } catch {
    // Storage can throw (disabled cookies): then nobody is signed in here, as for the app.
    return false
  }
}

/**
 * A signed-in agent sees at / what the app shows there (the landing page under the agent's own
 * menu): the app starts and draws itself over this page, which looks the same but for the header.
 */
function startAgentApp() {
  const app = JSON.parse(document.getElementById('agent-app')?.textContent || '{}') as Partial<AgentApp>
  for (const href of app.styles ?? []) {
    const link = document.createElement('link')
    link.rel = 'stylesheet'
    link.href = href
    document.head.append(link)
  }
  for (const src of app.scripts ?? []) {
    const script = document.createElement('script')
    script.type = 'module'
    script.src = src
    document.head.append(script)
  }
}

/** At 960 px or less the header's menu folds behind a toggle, as SiteHeader's does. */
function foldableMenu() {
  const toggle = document.querySelector<HTMLButtonElement>('.site-nav__toggle')
  const menu = document.getElementById('site-menu')
  const nav = toggle?.closest('nav')
  if (!toggle || !menu || !nav) return
  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true'
  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open))
    menu.toggleAttribute('data-open', open)
    toggle.querySelector('path')?.setAttribute('d', open ? MENU_ICON_PATH.open : MENU_ICON_PATH.closed)
  }
  toggle.addEventListener('click', () => setOpen(!isOpen()))
  nav.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) {
      setOpen(false)
      toggle.focus()
    }
  })
}

if (isSignedIn()) startAgentApp()
else foldableMenu()
