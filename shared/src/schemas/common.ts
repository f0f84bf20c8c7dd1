import { z } from 'zod'
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, requiredMessage, tooLongMessage } from '../constants/fields.ts'
import { messages } from '../messages.ts'

/** PostgreSQL text cannot hold a NUL character; no form can type one. */
const noNul = (text: string) => !text.includes('\u0000')
const NUL_MESSAGE = 'Contains a character that is not allowed'

export const Email = z
  .string({ error: messages.emailIdNotValid })
  .refine(noNul, { error: messages.emailIdNotValid })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: messages.emailIdNotValid })
  .regex(EMAIL_PATTERN, { error: messages.emailIdNotValid })

/** Flags travel as booleans or as SPEC's 'true'/'false' strings (API.md). */
export const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])

export const Id = z.coerce.number().int().positive()

/** A calendar date 'YYYY-MM-DD'; a full ISO timestamp is accepted and its UTC date used. */
export const IsoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, { error: 'Use the date format YYYY-MM-DD' })
  .transform((v) => v.slice(0, 10))
  // Date.parse rolls an impossible day over (2027-02-30 becomes March 2): the date must read back the same.
  .refine(
    (v) => {
      const parsed = new Date(`${v}T00:00:00Z`)
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === v
    },
    { error: 'Not a real date' },
  )

/** Optional text that a form may send as '' or null: all mean "not given". */
export const OptionalText = (max = 200) =>
  z
    .string()
    .refine(noNul, { error: NUL_MESSAGE })
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null))

/** An absolute http:// or https:// address (a javascript:, data: or file: URL is no link to a listing). */
function isWebUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol)
  } catch {
    return false
  }
}

const WEB_URL_MESSAGE = 'Enter a full http:// or https:// address'

/** An optional web address a person will open from the app, a mail or a CRM: http(s) only. */
export const OptionalWebUrl = (max = 500) =>
  OptionalText(max).refine((v) => v === null || isWebUrl(v), { error: WEB_URL_MESSAGE })

export const RequiredText = (label: string, max = 200) =>
  z
    .string({ error: requiredMessage(label) })
    .refine(noNul, { error: NUL_MESSAGE })
    .trim()
    .min(1, { error: requiredMessage(label) })
    .max(max, { error: tooLongMessage(label, max) })

/**
 * For a cross-field refinement: run it even when other fields failed, as long as the fields it reads
 * parsed, so a form gets every message at once. Never on a body that is not an object at all (an issue
 * at the root, e.g. a JSON `null`): the refinement would read fields of nothing.
 */
export function whenValid(...fields: string[]) {
  return {
    when: (payload: { issues: ReadonlyArray<{ path?: PropertyKey[] | undefined }> }) =>
      payload.issues.every((issue) => issue.path?.length && !fields.includes(String(issue.path[0]))),
  }
}
