// The seller's report shows what visitors wrote, but never who they are: emails, phone numbers and
// the names the open house knows (its visitors, its agents) are taken out of the text.

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
/** Seven or more digits, with the separators phone numbers are written with. */
const PHONE = /\+?\(?\d[\d\s().-]{5,}\d/g
const DIGITS = /\d/g

const escapeRegExp = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The text with emails, phone-like numbers and the given names replaced by placeholders. */
export function anonymiseComment(text: string, names: readonly string[]): string {
  let out = text.replace(EMAIL, '[email]')
  out = out.replace(PHONE, (match) => ((match.match(DIGITS)?.length ?? 0) >= 7 ? '[phone]' : match))
  const words = [...new Set(names.flatMap((n) => n.split(/\s+/)).map((w) => w.trim()))]
    // One- and two-letter words ("Jo", an initial) would blank ordinary words too.
    .filter((w) => w.length >= 3)
    .sort((a, b) => b.length - a.length)
  if (words.length > 0) {
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`,
      'giu',
    )
    out = out.replace(pattern, '[name]')
  }
  return out
}
