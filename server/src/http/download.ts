import { create } from 'content-disposition'

/**
 * An ASCII stand-in for a file name, for clients that read only `filename=`: accents dropped
 * (Łukasz → Lukasz), anything else outside printable ASCII, quotes and path separators as '-'.
 */
export function asciiFileName(name: string, stem = 'download'): string {
  const ascii = name
    .replace(/[łŁ]/g, (c) => (c === 'ł' ? 'l' : 'L'))
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]+|["\\/%;]+/g, '-')
    .replace(/-{2,}/g, '-')
  const dot = ascii.lastIndexOf('.')
  // A name that was all non-Latin keeps at least a word before its extension.
  return dot <= 0 || /^[-\s]*$/.test(ascii.slice(0, dot))
    ? `${stem}${dot >= 0 ? ascii.slice(dot) : ''}`
    : ascii
}

/**
 * The Content-Disposition of every download (CSV, ICS, PDF, vCard): RFC 6266 with the name as typed in
 * `filename*=UTF-8''…` (RFC 8187) and an ASCII fallback in `filename=`. A name never goes raw into the
 * header, where anything beyond Latin-1 made Node refuse the answer (HTTP 500).
 */
export function attachment(fileName: string, stem?: string): string {
  return create(fileName, { fallback: asciiFileName(fileName, stem) })
}
