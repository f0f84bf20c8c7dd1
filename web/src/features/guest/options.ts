import type {
  BEST_TIMES_TO_CONTACT,
  CURRENT_HOUSE_STATUSES,
  FEEDBACK_RATING_GROUPS,
  HEARD_ABOUT_THIS_OPEN_HOUSE,
  HOME_BUYING_TIMELINES,
  PROSPECT_NOTIFICATIONS,
} from '@porchlight/shared/enums'

// SPEC §3's option lists for the guest pages. The values live in @porchlight/shared/enums, but that
// module builds zod enums on load and would pull zod (~25 KB gzipped) into the light guest chunk. So
// the lists are repeated here, and each is typed as the shared tuple: any difference in a label, its
// spelling ('Afteroon') or its order fails the type check.

export const BEST_TIMES: typeof BEST_TIMES_TO_CONTACT = [
  'Morning',
  'Afteroon',
  'Evening',
  'Weekends',
  'No Preference',
]
export const NOTIFICATIONS: typeof PROSPECT_NOTIFICATIONS = ['Email', 'SMS', 'Both']
export const HOUSE_STATUSES: typeof CURRENT_HOUSE_STATUSES = ['Rent', 'Own', 'Other']
export const TIMELINES: typeof HOME_BUYING_TIMELINES = [
  'Now',
  '1-3 Months',
  '3-6 Months',
  '6-9 Months',
  'Just Exploring',
  'Other',
]
export const HEARD_ABOUT: typeof HEARD_ABOUT_THIS_OPEN_HOUSE = [
  'Friend',
  'Driving By',
  'Signs',
  'Online Website',
  'Realtor Communication',
  'Other',
]

export const RATING_GROUPS: typeof FEEDBACK_RATING_GROUPS = {
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
}
