import { z } from 'zod'
import { FEEDBACK_TEXT_LIMIT } from '../constants/fields.ts'
import { FEEDBACK_RATING_FIELDS, type FeedbackRatingField, RATING_MAX, RATING_MIN } from '../enums.ts'
import { Id, OptionalText } from './common.ts'

const RATING_MESSAGE = `A rating is ${RATING_MIN} to ${RATING_MAX}, or empty for N/A`

/** 1–5 as a number or a string; '' or null is the form's 'N/A'. */
export const FeedbackRating = z
  .union([z.number(), z.string()], { error: RATING_MESSAGE })
  .nullish()
  .transform((v) => (v === '' || v === null || v === undefined ? null : Number(v)))
  .pipe(
    z
      .number({ error: RATING_MESSAGE })
      .int(RATING_MESSAGE)
      .min(RATING_MIN, RATING_MESSAGE)
      .max(RATING_MAX, RATING_MESSAGE)
      .nullable(),
  )

const ratingShape = Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, FeedbackRating])) as Record<
  FeedbackRatingField,
  typeof FeedbackRating
>

/** The guest's feedback form (SPEC §3 "Feedback"); the hosting agent is taken from the open house. */
export const SaveFeedbackBody = z.object({
  openHouseId: Id,
  prospectId: Id,
  /** The capability the guest sign-in answered; feedback is refused without it. */
  guestToken: z.string({ error: 'guestToken is required' }).regex(/^[\w-]{20,100}$/, {
    error: 'guestToken is not valid',
  }),
  /** Ignored: the open house's hosting agent is recorded. */
  hostingREAgentId: Id.nullish(),
  feedbackText: OptionalText(FEEDBACK_TEXT_LIMIT),
  ...ratingShape,
  createdDate: z.string().optional(),
  updatedDate: z.string().optional(),
})
export type SaveFeedbackBody = z.input<typeof SaveFeedbackBody>

const ratingOutput = Object.fromEntries(
  FEEDBACK_RATING_FIELDS.map((f) => [f, z.number().int().nullable()]),
) as Record<FeedbackRatingField, z.ZodNullable<z.ZodNumber>>

export const Feedback = z.object({
  id: z.number().int(),
  openHouseId: z.number().int(),
  prospectId: z.number().int(),
  hostingREAgentId: z.number().int().nullable(),
  feedbackText: z.string().nullable(),
  ...ratingOutput,
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type Feedback = z.infer<typeof Feedback>

/** Per rating field the rounded average of the given ratings, null when nobody rated it (SPEC §9). */
export const FeedbackSummary = z.object({
  count: z.number().int(),
  averages: z.object(
    Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, z.number().int().nullable()])) as Record<
      FeedbackRatingField,
      z.ZodNullable<z.ZodNumber>
    >,
  ),
  /** How many guests rated each aspect (0 where nobody did). */
  ratingCounts: z.object(
    Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, z.number().int()])) as Record<
      FeedbackRatingField,
      z.ZodNumber
    >,
  ),
  /** The written feedback, newest first. */
  texts: z.array(z.string()),
})
export type FeedbackSummary = z.infer<typeof FeedbackSummary>
