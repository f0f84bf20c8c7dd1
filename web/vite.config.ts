import optimizeLocales from '@react-aria/optimize-locales-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type UserConfig } from 'vite'
import { guestServiceWorker } from './build/guest-offline.ts'
import { inlinePage } from './build/inline-page.ts'
import { landingPage } from './build/landing-page.ts'

const api = 'http://localhost:3000'
const proxy = {
  '/api': api,
  '/dev': api,
  '/socket.io': { target: api, ws: true },
}

/**
 * `vite build --mode guest`, run after the agent app's build into the same folder: the guest pages
 * (`guest.html`, served for /public/*) on Preact's React-compatible API instead of React, so a visitor's
 * phone on one bar downloads ~20 KB of script instead of ~80 KB and runs far less of it, all of it in
 * the page itself. The guest code
 * uses React's plain API only (components, hooks, lazy, Suspense), which preact/compat provides; the
 * browser journeys run the guest pages from this build. `vite` (dev) serves them on React from index.html.
 */
const guest: UserConfig = {
  // inlinePage before guestServiceWorker: the worker caches the page, which then carries everything.
  // landingPage builds the agents' landing page (served for /) after the guest pages, the same way.
  plugins: [react(), inlinePage(), guestServiceWorker(), landingPage()],
  publicDir: false,
  resolve: {
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
    ],
  },
  build: {
    emptyOutDir: false,
    // One chunk (the kiosk page too, ~2 KB), put into the page itself by inlinePage.
    rolldownOptions: { input: { guest: 'guest.html' }, output: { codeSplitting: false } },
  },
}

const agent: UserConfig = {
  // The router plugin must run before react() so route files are split before JSX is transformed.
  plugins: [
    // The app speaks US English only (SPEC texts; dates MM/dd/yyyy): drop react-aria's strings for
    // its other 30-odd locales, which would otherwise ship with every date field, select and dialog.
    optimizeLocales.vite({ locales: ['en-US'] }),
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
  ],
  build: {
    rolldownOptions: {
      output: {
        // React changes least often: its own chunk stays cached across deploys.
        codeSplitting: {
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: { proxy },
  preview: { proxy },
}

export default defineConfig(({ mode }) => (mode === 'guest' ? guest : agent))
