import { FEEDBACK_RATING_FIELDS } from '../enums.ts'
import { WEBHOOK_DATA, type WebhookData, type WebhookDataType } from './webhook-payloads.ts'

// One example of each event's `data`, for docs/webhooks.md and the OpenAPI document. Each is parsed
// through its schema when used (webhookExample), so an example that misses a field fails the docs'
// generation and its test rather than showing a shape we do not send.

const property = {
  id: 12,
  propertyAddress1: '12 Lantern Way',
  propertyAddress2: null,
  propertyCity: 'Alpharetta',
  propertyState: 'GA',
  propertyCounty: 'Fulton',
  propertyZipCode: '30004',
  propertyZipPlus4: null,
  propertyCountry: 'US',
  propertyLatitude: 34.0754,
  propertyLongitude: -84.2941,
  propertyType: 'Single Family',
  completePropertyAddress: '12 Lantern Way, Alpharetta, GA 30004',
  createdDate: '2026-11-20T15:00:00.000Z',
  updatedDate: '2026-11-20T15:00:00.000Z',
}

const schedule = {
  scheduledDate: '2026-11-28',
  scheduledStartTime: '1:00 PM',
  scheduledEndTime: '3:00 PM',
  openHouseTimezone: 'America/New_York',
  startsAt: '2026-11-28T18:00:00.000Z',
  endsAt: '2026-11-28T20:00:00.000Z',
}

const openHouse = {
  id: 41,
  rePropertyId: 12,
  listingREAgentId: 7,
  hostingREAgentId: 9,
  scheduledByREAgentId: 7,
  openHouseFor: 'Buyers',
  mlsId: 'MLS-4411',
  listingURL: null,
  ...schedule,
  openHousePreparationDate: null,
  balloonsPutOutFlag: true,
  snackServedFlag: false,
  mealServedFlag: false,
  drinkServedFlag: true,
  openHouseInstructions: 'Lockbox on the side door.',
  publishLevel: 'All Agents',
  publishLevelId: 'all',
  published: true,
  autoCloneOpenHouseFlag: false,
  followUpMailFlag: true,
  emailIdForSharingOHFeedback: null,
  openHouseCanceledFlag: false,
  openHouseCancelReason: null,
  reInventoryId: 3,
  createdDate: '2026-11-20T15:05:00.000Z',
  updatedDate: '2026-11-21T09:12:00.000Z',
  reProperty: property,
  listingREAgentName: 'Olive Lister',
  listingREAgentBrokerage: 'Peach State Realty',
  hostingREAgentName: 'Vera Host',
  scheduledByREAgentName: 'Olive Lister',
  status: 'Hosted' as const,
}

const prospect = {
  id: 310,
  prospectFirstName: 'Rosa',
  prospectMiddleName: null,
  prospectLastName: 'Diaz',
  prospectEmailId: 'rosa@example.com',
  prospectPhoneNumber: '678 555 0199',
  prospectAddress1: null,
  prospectAddress2: null,
  prospectCity: null,
  prospectState: null,
  prospectZipCode: null,
  prospectZipPlus4: null,
  prospectCounty: null,
  prospectCountry: null,
  currentHouseStatus: 'Renting',
  homeBuyingTimelines: '1-3 Months',
  workingWithREAgentFlag: false,
  bestTimeToContact: null,
  heardAboutThisOpenHouse: null,
  prospectNotification: null,
  createdByREAgentId: 9,
  createdByREAgentName: 'Vera Host',
  emailConsent: true,
  smsConsent: false,
  consentAt: '2026-11-28T18:20:00.000Z',
  createdDate: '2026-11-28T18:20:00.000Z',
  updatedDate: '2026-11-28T18:20:00.000Z',
  ownProspect: true,
  contactMasked: false,
  prospectStage: 'New' as const,
  nextFollowUpDate: null,
}

const consent = {
  prospectId: 310,
  emailConsent: true,
  smsConsent: false,
  consentText: 'Email me about homes like this one.',
  consentAt: '2026-11-28T18:20:00.000Z',
}

const customAnswers = [{ questionId: 5, question: 'Are you pre-approved?', answer: 'Yes' }]

const hostAndProperty = { openHouse, property }

const examples: { [E in WebhookDataType]: WebhookData<E> } = {
  'prospect.created': { prospect, consent, ...hostAndProperty, customAnswers },
  'attendee.added': {
    attendee: {
      id: 880,
      openHouseId: 41,
      prospectId: 310,
      signedInAt: '2026-11-28T18:20:00.000Z',
      captureDevice: 'tablet',
      capturedOffline: false,
      listingAgentConsent: true,
      answers: { homeBuyingTimelines: '1-3 Months', currentHouseStatus: 'Renting' },
      customAnswers,
    },
    prospect,
    consent,
    ...hostAndProperty,
  },
  'feedback.submitted': {
    feedback: {
      id: 77,
      openHouseId: 41,
      prospectId: 310,
      hostingREAgentId: 9,
      hostingREAgentName: 'Vera Host',
      feedbackText: 'Lovely kitchen.',
      ...(Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, null])) as Record<
        (typeof FEEDBACK_RATING_FIELDS)[number],
        null
      >),
      kitchen: 5,
      createdDate: '2026-11-28T18:40:00.000Z',
      updatedDate: '2026-11-28T18:40:00.000Z',
    },
    prospect,
    ...hostAndProperty,
  },
  'openHouse.published': {
    openHouse: { ...openHouse, hostingREAgentId: null, hostingREAgentName: null, status: 'Not Hosted' },
    property,
  },
  'openHouse.claimed': hostAndProperty,
  'openHouse.rescheduled': {
    ...hostAndProperty,
    previous: {
      ...schedule,
      scheduledDate: '2026-11-27',
      startsAt: '2026-11-27T18:00:00.000Z',
      endsAt: '2026-11-27T20:00:00.000Z',
    },
    current: schedule,
  },
  'openHouse.withdrawn': {
    openHouse: { ...openHouse, hostingREAgentId: null, hostingREAgentName: null, status: 'Not Hosted' },
    property,
    withdrawnBy: 'host',
    previousHost: { reAgentId: 9, reAgentName: 'Vera Host' },
  },
  'openHouse.canceled': {
    openHouse: {
      ...openHouse,
      openHouseCanceledFlag: true,
      openHouseCancelReason: 'Property Sold',
      status: 'Canceled',
    },
    property,
  },
  'consent.changed': {
    prospect: { ...prospect, emailConsent: false, consentAt: '2026-11-30T08:00:00.000Z' },
    consent: { ...consent, emailConsent: false, consentAt: '2026-11-30T08:00:00.000Z' },
  },
  'webhook.test': { endpointId: 4, message: 'A test event from Porchlight' },
}

/** A whole example body of the event, as its schema shapes it. */
export function webhookExample(type: WebhookDataType) {
  return {
    type,
    timestamp: '2026-11-28T18:20:01.000Z',
    data: WEBHOOK_DATA[type].parse(examples[type]),
  }
}
