import { parse } from 'content-disposition'
import { describe, expect, it } from 'vitest'
import { asciiFileName, attachment } from './download.ts'

describe('download file names (RFC 6266)', () => {
  it('falls back to ASCII by dropping accents, and to a plain word when nothing Latin is left', () => {
    expect(asciiFileName('Łukasz-Wójcik.vcf')).toBe('Lukasz-Wojcik.vcf')
    expect(asciiFileName('Thị-Nguyễn.vcf')).toBe('Thi-Nguyen.vcf')
    expect(asciiFileName('Ольга-Иванова.vcf', 'contact')).toBe('contact.vcf')
    expect(asciiFileName('李-小龙.vcf')).toBe('download.vcf')
    expect(asciiFileName('a"b\\c/d;e%f.csv')).toBe('a-b-c-d-e-f.csv')
  })

  it('writes an ASCII header that a reader takes back as the name typed', () => {
    for (const name of ['Ольга-Иванова.vcf', '李-小龙.vcf', 'José "J" Núñez; Jr.vcf', '👩‍👩‍👧.ics']) {
      const header = attachment(name)
      expect(header).toMatch(/^[\x20-\x7e]+$/)
      expect(parse(header).parameters.filename).toBe(name)
    }
    // A plain name needs no extended parameter.
    expect(attachment('open-house-3.ics')).toBe('attachment; filename=open-house-3.ics')
  })
})
