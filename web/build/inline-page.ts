import type { Plugin } from 'vite'

/**
 * Puts a page's script and stylesheets into the page itself and drops the files, so the page is one
 * download. On a weak signal every further file costs a connection and round trips (about 0.6 s at
 * 300 ms) before the page can be drawn, for a few KB that the page's compressed copy carries at almost
 * no cost. For the guest pages only (vite.config.ts, mode "guest", built as one chunk); the agent app's
 * files stay files. The server allows the inline script by its hash (server/src/http/web-app.ts).
 */
export function inlinePage(): Plugin {
  return {
    name: 'porchlight-inline-page',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const take = (fileName: string) => {
        const item = bundle[fileName]
        if (!item) return null
        delete bundle[fileName]
        return item.type === 'chunk' ? item.code : String(item.source)
      }
      for (const page of Object.values(bundle)) {
        if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue
        page.source = String(page.source)
          .replace(
            /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g,
            (link, file: string) => {
              const css = take(file)
              return css === null ? link : `<style>${css}</style>`
            },
          )
          .replace(
            /<script type="module"(?: crossorigin)? src="\/([^"]+\.js)"><\/script>/g,
            (script, file: string) => {
              const code = take(file)
              if (code === null) return script
              if (/\bimport\s*\(|^\s*import\b/m.test(code)) {
                throw new Error(`inline-page: ${file} imports other files; build it as one chunk`)
              }
              // Nothing in the code may end the <script> element or open an HTML comment in it.
              return `<script type="module">${code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--')}</script>`
            },
          )
      }
    },
  }
}
