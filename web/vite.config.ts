import optimizeLocales from '@react-aria/optimize-locales-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { guestServiceWorker } from './build/guest-offline.ts'
import { precompress } from './build/precompress.ts'

const api = 'http://localhost:3000'

export default defineConfig({
  // The router plugin must run before react() so route files are split before JSX is transformed.
  plugins: [
    // The app speaks US English only (SPEC texts; dates MM/dd/yyyy): drop react-aria's strings for
    // its other 30-odd locales, which would otherwise ship with every date field, select and dialog.
    optimizeLocales.vite({ locales: ['en-US'] }),
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    guestServiceWorker(),
    precompress(),
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
  server: {
    proxy: {
      '/api': api,
      '/dev': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': api,
      '/dev': api,
      '/socket.io': { target: api, ws: true },
    },
  },
})
