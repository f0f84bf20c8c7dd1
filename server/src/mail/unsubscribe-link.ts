import { escapeHtml } from '../lib/html.ts'
import type { OutgoingMail } from './mailer.ts'

/**
 * Where a mail's unsubscribe link stands in its stored bodies and List-Unsubscribe header: the link
 * itself is kept sealed beside them (mail.unsubscribe_url, decision 033) and put back as it goes out.
 */
export const UNSUBSCRIBE_LINK = '{{porchlight:unsubscribe}}'

/** Where a link that opens something without a sign-in stands (mail.private_link, sealed the same way). */
export const PRIVATE_LINK = '{{porchlight:link}}'

/** The columns a mail's links are sealed for (their names are part of the sealing). */
export type SealedMailColumn = 'mail.unsubscribe_url' | 'mail.private_link'

/** The mail as it goes out: its links where the stored mail holds their placeholders. */
export function withUnsubscribeLink<M extends Pick<OutgoingMail, 'textBody' | 'htmlBody' | 'headers'>>(
  mail: M,
  url: string | null,
  privateLink: string | null = null,
): M {
  const links = [
    [UNSUBSCRIBE_LINK, url],
    [PRIVATE_LINK, privateLink],
  ].filter((l): l is [string, string] => l[1] !== null)
  if (links.length === 0) return mail
  const put = (s: string, encode: (v: string) => string = (v) => v) =>
    links.reduce((out, [placeholder, value]) => out.split(placeholder).join(encode(value)), s)
  return {
    ...mail,
    textBody: put(mail.textBody),
    htmlBody: mail.htmlBody === null ? null : put(mail.htmlBody, escapeHtml),
    headers: mail.headers
      ? Object.fromEntries(Object.entries(mail.headers).map(([name, value]) => [name, put(value)]))
      : mail.headers,
  }
}
