import { describe, expect, it } from 'vitest'
import {
  PHONE_NUMBER_NOT_VALID,
  PHONE_NUMBER_REQUIRED,
  PROSPECT_MAX_LENGTHS,
  PROSPECT_NAME_LABELS,
  requiredMessage,
  tooLongMessage,
  ZIP_CODE_NOT_VALID,
} from '../constants/fields.ts'
import { messages } from '../messages.ts'
import { GuestSignInBody } from './prospect.ts'

// The guest sign-in page checks these plain rules without zod; the server checks GuestSignInBody.
// Both must tell a visitor the same thing about the same field.

const signIn = {
  prospectFirstName: 'Jordan',
  prospectLastName: 'Rivers',
  prospectEmailId: 'jordan.rivers@example.com',
  prospectPhoneNumber: '404 555 0142',
  openHouseId: 1,
  clientRequestId: '0b7c6f5e-3f5a-4b8e-9f57-2d3f3c1a8e11',
}

function messageFor(field: string, body: Record<string, unknown>): string | undefined {
  const result = GuestSignInBody.safeParse(body)
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message
}

describe('the prospect field rules the guest page shares with the server', () => {
  it('accepts the sign-in a visitor fills in', () => {
    expect(GuestSignInBody.safeParse(signIn).success).toBe(true)
  })

  it.each([
    ['prospectFirstName', requiredMessage(PROSPECT_NAME_LABELS.prospectFirstName)],
    ['prospectLastName', requiredMessage(PROSPECT_NAME_LABELS.prospectLastName)],
    ['prospectEmailId', messages.emailIdNotValid],
    ['prospectPhoneNumber', PHONE_NUMBER_REQUIRED],
  ])('says the words the guest page shows when %s is missing', (field, message) => {
    const { [field as keyof typeof signIn]: _left, ...rest } = signIn
    expect(messageFor(field, rest)).toBe(message)
  })

  it('refuses what the guest page refuses, in the same words', () => {
    expect(messageFor('prospectEmailId', { ...signIn, prospectEmailId: 'jordan@example.c' })).toBe(
      messages.emailIdNotValid,
    )
    expect(messageFor('prospectPhoneNumber', { ...signIn, prospectPhoneNumber: '555' })).toBe(
      PHONE_NUMBER_NOT_VALID,
    )
    expect(messageFor('prospectZipCode', { ...signIn, prospectZipCode: '30#01' })).toBe(ZIP_CODE_NOT_VALID)
  })

  it('takes each text field up to its length and no further', () => {
    for (const [field, max] of Object.entries(PROSPECT_MAX_LENGTHS)) {
      expect(messageFor(field, { ...signIn, [field]: 'a'.repeat(max) })).toBeUndefined()
      expect(messageFor(field, { ...signIn, [field]: 'a'.repeat(max + 1) })).toBeDefined()
    }
    expect(messageFor('prospectFirstName', { ...signIn, prospectFirstName: 'a'.repeat(81) })).toBe(
      tooLongMessage('First name', PROSPECT_MAX_LENGTHS.prospectFirstName),
    )
  })
})

describe('the small CRM bodies (issue 13)', () => {
  it('takes a stage and a real calendar date, and clears the date with an empty one', async () => {
    const { UpdateProspectFollowUpBody } = await import('./prospect.ts')
    expect(
      UpdateProspectFollowUpBody.parse({ prospectStage: 'Client', nextFollowUpDate: '2026-12-01' }),
    ).toEqual({
      prospectStage: 'Client',
      nextFollowUpDate: '2026-12-01',
    })
    expect(UpdateProspectFollowUpBody.parse({ nextFollowUpDate: '' })).toEqual({ nextFollowUpDate: null })
    expect(UpdateProspectFollowUpBody.safeParse({ prospectStage: 'Lost' }).success).toBe(false)
    expect(UpdateProspectFollowUpBody.safeParse({ nextFollowUpDate: '2027-02-30' }).success).toBe(false)
    expect(UpdateProspectFollowUpBody.safeParse({}).success).toBe(false)
  })

  it('reads the list query: newest first by default, flags as strings, unknown filters refused', async () => {
    const { OwnProspectListQuery } = await import('./prospect.ts')
    expect(OwnProspectListQuery.parse({})).toMatchObject({ sort: 'newest', limit: 100, offset: 0 })
    expect(
      OwnProspectListQuery.parse({ noRealtor: 'true', openHouseId: '7', timeline: '1-3 Months' }),
    ).toMatchObject({ noRealtor: true, openHouseId: 7, timeline: '1-3 Months' })
    expect(OwnProspectListQuery.safeParse({ stage: 'Lost' }).success).toBe(false)
    expect(OwnProspectListQuery.safeParse({ sort: 'oldest' }).success).toBe(false)
  })

  it('needs a note of 1 to 2000 characters', async () => {
    const { AddProspectNoteBody } = await import('./prospect.ts')
    expect(AddProspectNoteBody.parse({ noteText: '  Called.  ' })).toEqual({ noteText: 'Called.' })
    expect(AddProspectNoteBody.safeParse({ noteText: ' ' }).success).toBe(false)
    expect(AddProspectNoteBody.safeParse({ noteText: 'x'.repeat(2001) }).success).toBe(false)
  })
})
