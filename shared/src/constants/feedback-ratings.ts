// SPEC §3 "Feedback" ratings, for the guest feedback form and the agent's summary: plain as in
// options.ts (enums.ts builds FeedbackRatingField).

/** Feedback rating fields by form section (SPEC §3 "Feedback"); each is 1–5 or empty for N/A. */
export const FEEDBACK_RATING_GROUPS = {
  exterior: ['homeLot', 'curbAppeal', 'frontYard', 'backYard'],
  interior: [
    'kitchen',
    'familyRoom',
    'livingRoom',
    'diningRoom',
    'masterBedroom',
    'masterBathroom',
    'otherBedrooms',
    'otherBathrooms',
    'laundryRoom',
    'closetsStorage',
    'hallways',
    'garage',
    'basement',
    'homeLayout',
    'homeFeatures',
  ],
  other: [
    'homeLocation',
    'homeCondition',
    'homePrice',
    'homeNeighborhood',
    'overallExperience',
    'meetsMyCriteria',
  ],
  hostingAgent: [
    'agentKnowledge',
    'agentProfessionalism',
    'agentCommunication',
    'agentResponsiveness',
    'agentOverallExperience',
    'agentRecommendation',
  ],
} as const
export type FeedbackRatingGroup = keyof typeof FEEDBACK_RATING_GROUPS

/** All 31 rating fields, in form order. */
export const FEEDBACK_RATING_FIELDS = [
  ...FEEDBACK_RATING_GROUPS.exterior,
  ...FEEDBACK_RATING_GROUPS.interior,
  ...FEEDBACK_RATING_GROUPS.other,
  ...FEEDBACK_RATING_GROUPS.hostingAgent,
] as const
export type FeedbackRatingField = (typeof FEEDBACK_RATING_FIELDS)[number]

/**
 * The six ratings visitors answer most, asked first on the guest's phone; the other 25 wait behind
 * "Rate more details" (issue 12). Still answered in the same body, so the API contract is unchanged.
 */
export const PRIMARY_FEEDBACK_RATINGS = [
  'overallExperience',
  'homeCondition',
  'homePrice',
  'homeLocation',
  'homeLayout',
  'agentOverallExperience',
] as const satisfies readonly FeedbackRatingField[]

export const RATING_MIN = 1
export const RATING_MAX = 5

const OWN_LABELS: Partial<Record<FeedbackRatingField, string>> = {
  homeLot: 'Lot',
  closetsStorage: 'Closets & Storage',
  hallways: 'Hallways',
  meetsMyCriteria: 'Meets My Criteria',
  // Asked among the primary ratings, away from its section: it names whom it rates.
  agentOverallExperience: 'Hosting Agent Overall',
}

/**
 * What a rating is called wherever people read it (the feedback form, the summaries, the mails):
 * 'curbAppeal' → 'Curb Appeal'; the hosting agent's fields drop their 'agent' prefix.
 */
export function ratingLabel(field: FeedbackRatingField): string {
  const own = OWN_LABELS[field]
  if (own) return own
  const words = field
    .replace(/^agent(?=[A-Z])/, '')
    .replace(/([A-Z])/g, ' $1')
    .trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
