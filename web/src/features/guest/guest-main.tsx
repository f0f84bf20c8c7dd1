import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { GuestApp } from './guest-app.tsx'
import { whenIdle } from './when-idle.ts'
import '../../ui/tokens.css'
import '../../ui/styles.css'
import './guest.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// The guest pages open from the cache on a second scan or a flickering signal (web/build/guest-offline.ts).
// The worker is installed once the page is drawn and idle: it never competes with the first view.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  whenIdle(() => {
    navigator.serviceWorker.register('/sw.js', { scope: '/public/' }).then(
      // A page opened from the cache looks for a new release once the phone has a signal again.
      (registration) => window.addEventListener('online', () => void registration.update().catch(() => {})),
      () => {},
    )
  })
}

createRoot(root).render(
  <StrictMode>
    <GuestApp />
  </StrictMode>,
)
