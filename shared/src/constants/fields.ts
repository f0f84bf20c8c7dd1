// The plain rules of the form fields (SPEC §5): the zod schemas (schemas/*) are built from them, and
// the light guest pages check the same rules without zod, so a guest reads the words a 422 would send.
// An invalid email says messages.emailIdNotValid.

/** SPEC §5 "standard email pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
export const EMAIL_MAX_LENGTH = 254

export const PHONE_PATTERN = /^\+?[\d\s().-]{7,20}$/
export const PHONE_NUMBER_REQUIRED = 'Phone number is required'
export const PHONE_NUMBER_NOT_VALID = 'Enter a phone number of 7 to 20 digits'

/** SPEC §5/§9: a US zip is 5 digits from 10000 to 99999. */
export const US_ZIP_PATTERN = /^[1-9]\d{4}$/
/** A Canadian postal code, A1A 1A1 (the space may be left out; letters D, F, I, O, Q, U never appear). */
export const CANADIAN_POSTAL_CODE_PATTERN =
  /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i
/** The US Zip+4 suffix: 4 digits when given. */
export const ZIP_PLUS4_PATTERN = /^\d{4}$/
/**
 * A US zip (optionally with its -1234 suffix) or a Canadian postal code, for forms that do not know the
 * country (prospects); the property form knows it and says more precisely what is wrong (zipCodeProblem).
 */
export const POSTAL_CODE_PATTERN = new RegExp(
  `^(?:[1-9]\\d{4}(?:-\\d{4})?|${CANADIAN_POSTAL_CODE_PATTERN.source.slice(1, -1)})$`,
  'i',
)
export const ZIP_CODE_NOT_VALID =
  'Enter a US zip code of 5 digits (10000 to 99999) or a Canadian postal code like K1A 0B1'

export const ZIP_CODE_REQUIRED = 'Zip code is required'
export const US_ZIP_NOT_VALID = 'A US zip code is 5 digits from 10000 to 99999, like 30075'
export const CANADIAN_POSTAL_CODE_NOT_VALID =
  'A Canadian postal code reads letter-digit-letter digit-letter-digit, like K1A 0B1'
export const ZIP_PLUS4_NOT_VALID = 'Zip+4 is 4 digits, like 1234'
export const ZIP_PLUS4_US_ONLY = 'Zip+4 is only for US addresses; leave it empty for Canada'

/** What is wrong with a zip for its country, or null when it is right. */
export function zipCodeProblem(country: string, zip: string): string | null {
  const value = zip.trim()
  if (value === '') return ZIP_CODE_REQUIRED
  if (country === 'Canada')
    return CANADIAN_POSTAL_CODE_PATTERN.test(value) ? null : CANADIAN_POSTAL_CODE_NOT_VALID
  return US_ZIP_PATTERN.test(value) ? null : US_ZIP_NOT_VALID
}

/** What is wrong with a Zip+4 for its country, or null when it is right (or empty). */
export function zipPlus4Problem(country: string, plus4: string | null | undefined): string | null {
  const value = (plus4 ?? '').trim()
  if (value === '') return null
  if (country === 'Canada') return ZIP_PLUS4_US_ONLY
  return ZIP_PLUS4_PATTERN.test(value) ? null : ZIP_PLUS4_NOT_VALID
}

/** A Canadian postal code as it is written (upper case, one space); a US zip as typed. */
export function normalizePostalCode(zip: string): string {
  const value = zip.trim()
  if (!CANADIAN_POSTAL_CODE_PATTERN.test(value)) return value
  const compact = value.replace(' ', '').toUpperCase()
  return `${compact.slice(0, 3)} ${compact.slice(3)}`
}

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
