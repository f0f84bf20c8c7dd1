import {
  FEEDBACK_RATING_GROUPS,
  type FeedbackRatingField,
  type FeedbackRatingGroup,
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

const LABELS: Partial<Record<FeedbackRatingField, string>> = {
  homeLot: 'Lot',
  closetsStorage: 'Closets & Storage',
  hallways: 'Hallways',
  meetsMyCriteria: 'Meets My Criteria',
  agentOverallExperience: 'Overall Experience',
}

/** 'curbAppeal' → 'Curb Appeal'; the hosting agent's fields drop their 'agent' prefix. */
export function ratingLabel(field: FeedbackRatingField): string {
  const own = LABELS[field]
  if (own) return own
  const words = field.replace(/^agent(?=[A-Z])/, '').replace(/([A-Z])/g, ' $1')
  return words.charAt(0).toUpperCase() + words.slice(1).trim()
}

/** SPEC §3: N/A (empty) or 1 to 5, 5 excellent. */
export const RATING_CHOICES: readonly string[] = [
  '',
  ...Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i)),
]
