// The unsubscribe page a person opens from a mail's visible link: plain HTML from the API, no script,
// in Porchlight's look (the mark and name, the web's colours and button).

import type { FastifyReply, FastifyRequest } from 'fastify'
import { NotFoundError } from '../../errors.ts'
import { BRAND, BRAND_MARK_SVG } from '../../mail/brand.ts'

const style = `<meta name="robots" content="noindex">
<style>body{font-family:${BRAND.font};color:${BRAND.ink};line-height:1.5;margin:0;background:#f8fafc}
header{display:flex;align-items:center;gap:.5rem;padding:1rem 1.5rem;background:#fff;border-bottom:1px solid #e2e8f0;font-weight:700;font-size:1.125rem;color:${BRAND.night}}
main{max-width:32rem;margin:3rem auto;padding:2rem 1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.375rem;margin-top:0}
button{font:inherit;font-weight:600;background:${BRAND.accent};color:#fff;border:0;border-radius:.5rem;padding:.75rem 1.5rem;min-height:44px;cursor:pointer}
button:focus-visible{outline:3px solid ${BRAND.ink};outline-offset:2px}</style>`

const start = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Unsubscribe — Porchlight</title>${style}</head><body>
<header>${BRAND_MARK_SVG}<span>Porchlight</span></header><main>`

const GUEST = 'You will get no more mail from this agent through Porchlight.'
/** A seller unsubscribes from the mail of one seller report link (decision 051). */
const SELLER = 'You will get no more mail about this open house through Porchlight.'

const pages = (what: string) => ({
  ask: `<h1>Unsubscribe from these mails?</h1>
<p>${what}</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<input type="hidden" name="from" value="page"><button type="submit">Unsubscribe</button></form>`,
  done: `<h1>You are unsubscribed</h1><p>${what}</p>`,
  unknown: `<h1>This link does not work</h1><p>It may have been copied only in part. Use the link in the mail itself.</p>`,
})

export function unsubscribePage(
  state: 'ask' | 'done' | 'unknown',
  who: 'guest' | 'seller' = 'guest',
): string {
  return `${start}${pages(who === 'seller' ? SELLER : GUEST)[state]}</main></body></html>`
}

/**
 * The page a one-click unsubscribe link opens (GET): it asks to confirm, so scanners that open links
 * unsubscribe no one. A person's browser gets a page saying an unknown link does not work; any other
 * caller the API's 404.
 */
export function answerUnsubscribePage(
  req: FastifyRequest,
  reply: FastifyReply,
  known: { optedOut: boolean } | null | undefined,
  who: 'guest' | 'seller' = 'guest',
) {
  if (!known && !req.headers.accept?.includes('text/html')) throw new NotFoundError()
  return reply
    .status(known ? 200 : 404)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(unsubscribePage(known ? (known.optedOut ? 'done' : 'ask') : 'unknown', who))
}
