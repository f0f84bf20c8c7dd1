import { escapeHtml } from '../lib/html.ts'
import type { OutgoingMail } from './mailer.ts'

/**
 * Where a mail's unsubscribe link stands in its stored bodies and List-Unsubscribe header: the link
 * itself is kept sealed beside them (mail.unsubscribe_url, decision 033) and put back as it goes out.
 */
export const UNSUBSCRIBE_LINK = '{{porchlight:unsubscribe}}'

/** The mail as it goes out: its link where the stored mail holds the placeholder. */
export function withUnsubscribeLink<M extends Pick<OutgoingMail, 'textBody' | 'htmlBody' | 'headers'>>(
  mail: M,
  url: string | null,
): M {
  if (url === null) return mail
  const put = (s: string, value: string) => s.split(UNSUBSCRIBE_LINK).join(value)
  return {
    ...mail,
    textBody: put(mail.textBody, url),
    htmlBody: mail.htmlBody === null ? null : put(mail.htmlBody, escapeHtml(url)),
    headers: mail.headers
      ? Object.fromEntries(Object.entries(mail.headers).map(([name, value]) => [name, put(value, url)]))
      : mail.headers,
  }
}
