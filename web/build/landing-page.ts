import fs from 'node:fs'
import path from 'node:path'
import { build, type Plugin, runnerImport } from 'vite'
import { inlinePage } from './inline-page.ts'

/**
 * Builds landing.html, the page the server sends for /, after the guest pages and into the same
 * folder, as one download like them: prerendered HTML, its styles and its small script in the page.
 * A build of its own because a build that puts everything into one chunk takes one page only.
 */
export function landingPage(): Plugin {
  let root = process.cwd()
  let outDir = 'dist'
  return {
    name: 'porchlight-landing-page',
    apply: 'build',
    configResolved(config) {
      root = config.root
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        publicDir: false,
        logLevel: 'warn',
        plugins: [prerender(root, outDir), inlinePage()],
        build: {
          outDir,
          emptyOutDir: false,
          // Browsers without modulepreload load no more than the page: its polyfill has nothing to do.
          modulePreload: { polyfill: false },
          rolldownOptions: { input: { landing: 'landing.html' }, output: { codeSplitting: false } },
        },
      })
    },
  }
}

/**
 * Fills landing.html: the landing page's HTML, rendered with React from the same components as the
 * app's / route (src/features/landing/landing-page.tsx), and the agent app's files, which the page's
 * script starts for a signed-in agent. The agent app's build has written its index.html before.
 */
function prerender(root: string, outDir: string): Plugin {
  return {
    name: 'porchlight-landing-prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, { filename }) {
        if (path.basename(filename) !== 'landing.html') return html
        // Its own module runner, without this build's aliases: React renders here, not Preact.
        const { module } = await runnerImport<{ renderLandingPage(): string }>(
          path.join(root, 'src/features/landing/landing-page.tsx'),
          { configFile: false, root, logLevel: 'error', plugins: [stylesAside()] },
        )
        const app = JSON.stringify(agentAppFiles(outDir)).replaceAll('<', '\\u003c')
        return html
          .replace('<!--landing-page-->', () => module.renderLandingPage())
          .replace('<!--agent-app-->', () => `<script type="application/json" id="agent-app">${app}</script>`)
      },
    },
  }
}

/** The scripts and stylesheets the agent app's built index.html loads. */
function agentAppFiles(outDir: string): { scripts: string[]; styles: string[] } {
  const index = path.join(outDir, 'index.html')
  if (!fs.existsSync(index)) {
    throw new Error(`landing page: no agent app at ${index}; build it first (vite build, then --mode guest)`)
  }
  const page = fs.readFileSync(index, 'utf8')
  const scripts = [...page.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g)].map(([, src]) => src ?? '')
  const styles = [...page.matchAll(/<link rel="stylesheet"[^>]*\shref="([^"]+)"/g)].map(
    ([, href]) => href ?? '',
  )
  if (scripts.length === 0) throw new Error(`landing page: ${index} loads no script`)
  return { scripts, styles }
}

/** Rendering HTML needs no styles (the page's build bundles them): a stylesheet import is left empty. */
function stylesAside(): Plugin {
  const empty = '\0landing-prerender-no-css'
  return {
    name: 'porchlight-landing-prerender-no-css',
    enforce: 'pre',
    resolveId: (id) => (id.endsWith('.css') ? empty : null),
    load: (id) => (id === empty ? 'export {}' : null),
  }
}
