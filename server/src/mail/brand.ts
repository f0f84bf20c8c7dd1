// Porchlight's look outside the web app (mail, the unsubscribe page): the web's tokens as plain values,
// since neither a mail client nor a page without our stylesheet reads CSS variables.

import { escapeHtml } from '../lib/html.ts'

export const BRAND = {
  ink: '#1e293b',
  muted: '#64748b',
  night: '#0f172a',
  light: '#f59e0b',
  accent: '#b45309',
  font: 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif',
} as const

/** The mark (a house with its porch light on), as the site header and the favicon draw it. */
export const BRAND_MARK_SVG = `<svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="${BRAND.night}"/><path d="M8 15.5 16 8l8 7.5V24H8z" fill="none" stroke="#f8fafc" stroke-width="2" stroke-linejoin="round"/><circle cx="16" cy="18.5" r="3" fill="${BRAND.light}"/></svg>`

/**
 * The start of a branded HTML document: a language (screen readers pick the voice by it), a head with
 * its charset, viewport and title, and the Porchlight name above the content.
 */
export function htmlStart(title: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>${extraHead}</head>
<body style="margin:0;padding:1.5rem 1rem;font-family:${escapeHtml(BRAND.font)};color:${BRAND.ink};line-height:1.5">
<div style="max-width:36rem;margin:0 auto">
<p style="margin:0 0 1.5rem;font-weight:700;font-size:1.125rem;color:${BRAND.night}">Porchlight</p>`
}

export const htmlEnd = '</div></body></html>'
