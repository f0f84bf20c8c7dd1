import type { FastifyPluginAsync } from 'fastify'
import { escapeHtml } from '../../lib/html.ts'
import { type SealedMailColumn, withUnsubscribeLink } from '../../mail/unsubscribe-link.ts'

/** The machine itself: the mailbox holds sign-up codes and temporary passwords. */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * Without SMTP_URL, mail is kept in the database and read here, so sign-up works offline — on the
 * machine that runs Porchlight only: anyone else is answered as if the page did not exist.
 */
export const devMailboxRoutes: FastifyPluginAsync = async (app) => {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (req, reply) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return reply.callNotFound()
    const mails = await app.deps.db
      .selectFrom('mail')
      .select([
        'id',
        'toAddress',
        'subject',
        'textBody',
        'status',
        'createdAt',
        'unsubscribeUrl',
        'privateLink',
      ])
      .orderBy('id', 'desc')
      .limit(50)
      .execute()
    // The links are kept sealed apart from the body (decision 033); shown here as sent.
    const open = (sealed: string | null, column: SealedMailColumn) =>
      sealed === null ? null : app.deps.secrets.open(sealed, column)
    const textOf = (m: (typeof mails)[number]) =>
      withUnsubscribeLink(
        { textBody: m.textBody, htmlBody: null, headers: null },
        open(m.unsubscribeUrl, 'mail.unsubscribe_url'),
        open(m.privateLink, 'mail.private_link'),
      ).textBody
    const items = mails
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To ${escapeHtml(m.toAddress)} · ${new Date(m.createdAt).toLocaleString('en-US')} · ${escapeHtml(m.status)}</p>
<pre>${escapeHtml(textOf(m))}</pre></article>`,
      )
      .join('\n')
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Porchlight dev mailbox</title>
<style>body{font:16px system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1e293b}
article{border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem;margin:1rem 0}h2{font-size:1.1rem;margin:0}
.meta{color:#475569;font-size:.9rem}pre{white-space:pre-wrap;font:inherit}</style></head>
<body><h1>Dev mailbox</h1><p>Mail is stored here because no SMTP_URL is set. Newest first; reload to see new mail.</p>
${items || '<p>No mail yet.</p>'}</body></html>`)
  })
}
