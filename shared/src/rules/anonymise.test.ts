import { describe, expect, it } from 'vitest'
import { anonymiseComment } from './anonymise.ts'

describe('anonymiseComment', () => {
  it('takes out emails and phone numbers', () => {
    expect(anonymiseComment('Mail me at jo.doe+home@example.co.uk or call (404) 555-0199!', [])).toBe(
      'Mail me at [email] or call [phone]!',
    )
    expect(anonymiseComment('Text +1 678.555.0101 please', [])).toBe('Text [phone] please')
  })

  it('keeps short numbers: prices, rooms, years', () => {
    expect(anonymiseComment('3 bedrooms, built 1998, worth $450,000', [])).toBe(
      '3 bedrooms, built 1998, worth $450,000',
    )
  })

  it('takes out the names it is given, whole words only, in any case', () => {
    expect(
      anonymiseComment('I am Zephyrine MOORCROFT, Ann liked the annex', ['Zephyrine Moorcroft', 'Ann']),
    ).toBe('I am [name] [name], [name] liked the annex')
  })

  it('leaves one- and two-letter names alone so ordinary words survive', () => {
    expect(anonymiseComment('It is a good home', ['It', 'A'])).toBe('It is a good home')
  })
})
