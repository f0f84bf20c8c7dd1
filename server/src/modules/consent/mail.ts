import { escapeHtml } from '../../lib/html.ts'
import { htmlEnd } from '../../mail/brand.ts'
import type { MailContent } from '../../mail/queue-mail.ts'
import { UNSUBSCRIBE_LINK } from '../../mail/unsubscribe-link.ts'

/**
 * A guest mail with its unsubscribe: RFC 8058's one-click headers (a mail client POSTs
 * `List-Unsubscribe=One-Click` to the URL) and a visible link, which opens a page asking to confirm —
 * mail scanners open links, so a GET alone never unsubscribes. The link is stored sealed
 * (`sealedUrl`), apart from the mail: its bodies and header hold a placeholder until it goes out.
 */
export function withUnsubscribe(mail: MailContent, sealedUrl: string): MailContent {
  const line = `Don't want these mails? Unsubscribe: ${UNSUBSCRIBE_LINK}`
  return {
    ...mail,
    unsubscribeUrl: sealedUrl,
    text: `${mail.text}\n\n${line}`,
    html: mail.html.replace(
      htmlEnd,
      `<p style="color:#64748b;font-size:.85rem">Don't want these mails? <a href="${escapeHtml(UNSUBSCRIBE_LINK)}">Unsubscribe</a></p>${htmlEnd}`,
    ),
    headers: {
      ...mail.headers,
      'List-Unsubscribe': `<${UNSUBSCRIBE_LINK}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
