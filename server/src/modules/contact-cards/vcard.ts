import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { foldLine } from '../../lib/fold.ts'

// vCard 4.0 (RFC 6350), written by a small typed builder: the maintained npm libraries either build
// 3.0 only or wrap every value in a class of their own, and a contact card of a prospect needs seven
// properties. Escaping (§3.4) and folding (§3.2) follow the RFC; a real parser reads it back in the tests.

export interface ContactCard {
  uid: string
  firstName: string
  middleName?: string | null
  lastName: string
  email?: string | null
  phone?: string | null
  address?: {
    street: Array<string | null | undefined>
    city?: string | null
    region?: string | null
    postalCode?: string | null
    country?: string | null
  } | null
  note?: string | null
  /** When the prospect last changed. */
  rev: Date
}

/** §3.4: a TEXT value escapes backslash, comma and newline (a semicolon only inside a compound value). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** A component of a compound value (N, ADR), where a semicolon separates components. */
const escapeComponent = (value: string) => escapeText(value).replace(/;/g, '\\;')

/** §3.2: lines longer than 75 octets are folded, never inside a UTF-8 character. */
export const fold = foldLine

/** A compound value (N, ADR): components by ';', a component's list items by ','. */
const compound = (components: Array<Array<string | null | undefined>>) =>
  components
    .map((items) =>
      items
        .filter((v): v is string => !!v)
        .map(escapeComponent)
        .join(','),
    )
    .join(';')

/** 'YYYYMMDDTHHMMSSZ', the timestamp form REV takes. */
const timestamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/**
 * A phone number as the tel: URI §6.4.1 prefers, in E.164 (RFC 3966 global number): 6785550199 is
 * tel:+16785550199, which a phone dials from anywhere. Numbers without a country code are read as US
 * ones, where Porchlight's agents work; one libphonenumber-js cannot read stays as typed text.
 */
function telUri(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone, 'US')
  return parsed?.isPossible() ? `tel:${parsed.number}` : null
}

export function vcard(c: ContactCard): string {
  const fullName = [c.firstName, c.middleName, c.lastName].filter(Boolean).join(' ')
  const lines = ['BEGIN:VCARD', 'VERSION:4.0', 'PRODID:-//Porchlight//Prospects//EN', `UID:${c.uid}`]
  lines.push(`FN:${escapeText(fullName)}`)
  lines.push(`N:${compound([[c.lastName], [c.firstName], [c.middleName], [], []])}`)
  if (c.email) lines.push(`EMAIL;TYPE=home:${escapeText(c.email)}`)
  const tel = c.phone ? telUri(c.phone) : null
  if (tel) lines.push(`TEL;VALUE=uri;TYPE=voice:${tel}`)
  else if (c.phone) lines.push(`TEL;VALUE=text;TYPE=voice:${escapeText(c.phone)}`)
  const a = c.address
  if (a && (a.street.some(Boolean) || a.city || a.region || a.postalCode || a.country)) {
    lines.push(
      `ADR;TYPE=home:${compound([[], [], a.street, [a.city], [a.region], [a.postalCode], [a.country]])}`,
    )
  }
  if (c.note) lines.push(`NOTE:${escapeText(c.note)}`)
  lines.push(`REV:${timestamp(c.rev)}`)
  lines.push('END:VCARD')
  return `${lines.map(fold).join('\r\n')}\r\n`
}
