import { describe, expect, it } from 'vitest'
import { escapeText, fold, vcard } from './vcard.ts'

describe('vCard 4.0 writing', () => {
  it('escapes backslash, comma and newlines in text, and a semicolon inside N and ADR (RFC 6350 §3.4)', () => {
    expect(escapeText('a\\b,c;d\ne\r\nf')).toBe('a\\\\b\\,c;d\\ne\\nf')
    const text = vcard({ uid: 'u', firstName: 'A', lastName: 'B; C', rev: new Date(0) })
    expect(text).toContain('\r\nN:B\\; C;A;;;\r\n')
    expect(text).toContain('\r\nFN:A B; C\r\n')
  })

  it('folds at 75 octets without splitting a UTF-8 character (§3.2)', () => {
    const line = `NOTE:${'é'.repeat(60)}`
    const folded = fold(line)
    for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75)
    expect(folded.split('\r\n ').join('')).toBe(line)
  })

  it('writes a card with CRLF line ends, a tel: URI and no empty ADR', () => {
    const text = vcard({
      uid: 'urn:x:1',
      firstName: 'Ann',
      lastName: 'Lee',
      phone: '+1 (404) 555-0100',
      address: { street: [null] },
      rev: new Date('2026-11-24T05:00:00.123Z'),
    })
    expect(text).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:4.0',
        'PRODID:-//Porchlight//Prospects//EN',
        'UID:urn:x:1',
        'FN:Ann Lee',
        'N:Lee;Ann;;;',
        'TEL;VALUE=uri;TYPE=voice:tel:+14045550100',
        'REV:20261124T050000Z',
        'END:VCARD',
        '',
      ].join('\r\n'),
    )
  })
})

describe('vCard phone numbers', () => {
  it('writes a US number typed without its country code in E.164 (tel:+1…)', () => {
    const text = vcard({ uid: 'u', firstName: 'A', lastName: 'B', phone: '6785550199', rev: new Date(0) })
    expect(text).toContain('\r\nTEL;VALUE=uri;TYPE=voice:tel:+16785550199\r\n')
  })

  it('keeps a number it cannot read as text', () => {
    const text = vcard({ uid: 'u', firstName: 'A', lastName: 'B', phone: 'ask at desk', rev: new Date(0) })
    expect(text).toContain('\r\nTEL;VALUE=text;TYPE=voice:ask at desk\r\n')
  })
})
