import {
  FEEDBACK_RATING_GROUPS,
  type FeedbackRatingField,
  type FeedbackRatingGroup,
  PRIMARY_FEEDBACK_RATINGS,
  RATING_MAX,
  RATING_MIN,
} from '@porchlight/shared/constants/feedback-ratings'

/** SPEC §3 "Feedback" sections, in form order, with the heading each shows. */
export const FEEDBACK_SECTIONS: ReadonlyArray<{ group: FeedbackRatingGroup; title: string }> = [
  { group: 'exterior', title: 'Exterior' },
  { group: 'interior', title: 'Interior' },
  { group: 'other', title: 'Other' },
  { group: 'hostingAgent', title: 'Hosting agent' },
]

export const ratingFieldsOf = (group: FeedbackRatingGroup): readonly FeedbackRatingField[] =>
  FEEDBACK_RATING_GROUPS[group]

/** The ratings asked first (overall, condition, price, location, layout, the agent overall). */
export const PRIMARY_RATINGS: readonly FeedbackRatingField[] = PRIMARY_FEEDBACK_RATINGS

/** A section's ratings behind "Rate more details": all but the primary ones. */
export const detailFieldsOf = (group: FeedbackRatingGroup): readonly FeedbackRatingField[] =>
  ratingFieldsOf(group).filter((field) => !PRIMARY_RATINGS.includes(field))

/** The labels live with the rating fields, so the mails say what the screens say. */
export { ratingLabel } from '@porchlight/shared/constants/feedback-ratings'

/** SPEC §3: N/A (empty) or 1 to 5, 5 excellent. */
export const RATING_CHOICES: readonly string[] = [
  '',
  ...Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i)),
]
