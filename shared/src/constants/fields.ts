// The plain rules of the form fields (SPEC §5): the zod schemas (schemas/*) are built from them, and
// the light guest pages check the same rules without zod, so a guest reads the words a 422 would send.
// An invalid email says messages.emailIdNotValid.

/** SPEC §5 "standard email pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
export const EMAIL_MAX_LENGTH = 254

export const PHONE_PATTERN = /^\+?[\d\s().-]{7,20}$/
export const PHONE_NUMBER_REQUIRED = 'Phone number is required'
export const PHONE_NUMBER_NOT_VALID = 'Enter a phone number of 7 to 20 digits'

/** A US zip or a Canadian postal code as typed (prospects and properties). */
export const POSTAL_CODE_PATTERN = /^[A-Za-z0-9 -]{3,10}$/
export const ZIP_CODE_NOT_VALID = 'Zip code is not valid'

export const requiredMessage = (label: string) => `${label} is required`
export const tooLongMessage = (label: string, max: number) => `${label} must be at most ${max} characters`

/** What a prospect's name fields are called in their messages. */
export const PROSPECT_NAME_LABELS = {
  prospectFirstName: 'First name',
  prospectLastName: 'Last name',
} as const

/** The longest value each free-text prospect field takes (SPEC §3 "Prospect"). */
export const PROSPECT_MAX_LENGTHS = {
  prospectFirstName: 80,
  prospectMiddleName: 80,
  prospectLastName: 80,
  prospectAddress1: 120,
  prospectAddress2: 120,
  prospectCity: 80,
  prospectState: 80,
  prospectZipPlus4: 4,
  prospectCounty: 80,
  prospectCountry: 80,
} as const

/** The guest's written feedback (SPEC §3 "Feedback" feedbackText). */
export const FEEDBACK_TEXT_LIMIT = 2000
