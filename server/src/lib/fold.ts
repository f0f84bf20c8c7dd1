/**
 * RFC 5545 §3.1 and RFC 6350 §3.2: a content line longer than 75 octets is folded (CRLF and a space),
 * never inside a UTF-8 character, so a name in any alphabet reads back whole.
 */
export function foldLine(line: string): string {
  const out: string[] = []
  let current = ''
  let octets = 0
  for (const ch of line) {
    const size = Buffer.byteLength(ch)
    const limit = out.length === 0 ? 75 : 74
    if (octets + size > limit) {
      out.push(current)
      current = ''
      octets = 0
    }
    current += ch
    octets += size
  }
  out.push(current)
  return out.join('\r\n ')
}

/**
 * A whole iCalendar text refolded by octets: the `ics` package folds at 75 characters, which is up to
 * 300 octets with accented or CJK names. Its values escape their own line breaks, so a CRLF followed by
 * a space or tab is only ever a fold.
 */
export function refold(text: string): string {
  const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n')
  return lines.map((l) => (l === '' ? l : foldLine(l))).join('\r\n')
}

/** A parameter value (CN=…) as RFC 6868 writes a quote, a line break and a caret inside it. */
export const paramValue = (value: string) =>
  value
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(/\r\n|\r|\n/g, '^n')
