import type { MailContent } from '../../mail/queue-mail.ts'

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/**
 * A guest mail with its unsubscribe: RFC 8058's one-click headers (a mail client POSTs
 * `List-Unsubscribe=One-Click` to the URL) and a visible link, which opens a page asking to confirm —
 * mail scanners open links, so a GET alone never unsubscribes.
 */
export function withUnsubscribe(mail: MailContent, url: string): MailContent {
  const line = `Don't want these mails? Unsubscribe: ${url}`
  return {
    ...mail,
    text: `${mail.text}\n\n${line}`,
    html: mail.html.replace(
      '</body>',
      `<p style="color:#64748b;font-size:.85rem">Don't want these mails? <a href="${escapeHtml(url)}">Unsubscribe</a></p></body>`,
    ),
    headers: {
      ...mail.headers,
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
