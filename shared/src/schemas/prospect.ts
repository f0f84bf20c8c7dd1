import { z } from 'zod'
import {
  PROSPECT_MAX_LENGTHS as MAX,
  PROSPECT_NAME_LABELS as NAME,
  POSTAL_CODE_PATTERN,
  ZIP_CODE_NOT_VALID,
} from '../constants/fields.ts'
import {
  BestTimeToContact,
  CurrentHouseStatus,
  HeardAboutThisOpenHouse,
  HomeBuyingTimeline,
  ProspectNotification,
  ProspectStage,
} from '../enums.ts'
import { PhoneNumber } from './agent.ts'
import { Email, Flag, Id, IsoDate, OptionalText, RequiredText, whenValid } from './common.ts'
import { CustomAnswerSchema, CustomAnswersInput } from './custom-question.ts'

/** One of a SPEC §3 option list, or '' / null / absent for "not given". */
function optionalChoice<E extends z.ZodEnum>(label: string, schema: E) {
  const error = `${label} must be one of: ${schema.options.join(', ')}`
  return z
    .union([schema, z.literal('')], { error })
    .nullish()
    .transform((v): z.output<E> | null =>
      v === '' || v === null || v === undefined ? null : (v as z.output<E>),
    )
}

/** US zip (5 digits) or Canadian postal code; a number is accepted. */
const PostalCode = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v).trim()))
  .refine((v) => v === '' || POSTAL_CODE_PATTERN.test(v), { error: ZIP_CODE_NOT_VALID })
  .transform((v) => v || null)

/** The prospect form of SPEC §3/§5: first name, last name, email and phone required; others optional. */
const prospectShape = {
  prospectFirstName: RequiredText(NAME.prospectFirstName, MAX.prospectFirstName),
  prospectMiddleName: OptionalText(MAX.prospectMiddleName),
  prospectLastName: RequiredText(NAME.prospectLastName, MAX.prospectLastName),
  prospectEmailId: Email,
  prospectPhoneNumber: PhoneNumber,
  prospectAddress1: OptionalText(MAX.prospectAddress1),
  prospectAddress2: OptionalText(MAX.prospectAddress2),
  prospectCity: OptionalText(MAX.prospectCity),
  prospectState: OptionalText(MAX.prospectState),
  prospectZipCode: PostalCode,
  prospectZipPlus4: OptionalText(MAX.prospectZipPlus4),
  prospectCounty: OptionalText(MAX.prospectCounty),
  prospectCountry: OptionalText(MAX.prospectCountry),
  currentHouseStatus: optionalChoice('Current house status', CurrentHouseStatus),
  homeBuyingTimelines: optionalChoice('Home buying timeline', HomeBuyingTimeline),
  /** Yes, no or null (not said); absent keeps what is stored (a new prospect: not said). */
  workingWithREAgentFlag: Flag.nullable().optional(),
  bestTimeToContact: optionalChoice('Best time to contact', BestTimeToContact),
  heardAboutThisOpenHouse: optionalChoice('Heard about this open house', HeardAboutThisOpenHouse),
  prospectNotification: optionalChoice('Prospect notification', ProspectNotification),
  /** Sent by SPEC's client; the server sets them (API.md). */
  createdDate: z.string().optional(),
  updatedDate: z.string().optional(),
}

/** The prospect's own details in form and export order: free text, then SPEC §3's choices. */
export const PROSPECT_TEXT_FIELDS = [
  'prospectFirstName',
  'prospectMiddleName',
  'prospectLastName',
  'prospectEmailId',
  'prospectPhoneNumber',
  'prospectAddress1',
  'prospectAddress2',
  'prospectCity',
  'prospectState',
  'prospectZipCode',
  'prospectZipPlus4',
  'prospectCounty',
  'prospectCountry',
] as const
export const PROSPECT_CHOICE_FIELDS = [
  'currentHouseStatus',
  'homeBuyingTimelines',
  'workingWithREAgentFlag',
  'bestTimeToContact',
  'heardAboutThisOpenHouse',
  'prospectNotification',
] as const

export const ProspectFields = z.object(prospectShape)

/**
 * The guest QR-code sign-in (POST /public/saveProspect). The prospect belongs to the open house's
 * listing agent, whatever `reAgentId` the QR code carried. `clientRequestId` makes a retry safe.
 */
export const GuestSignInBody = z
  .object({
    ...prospectShape,
    openHouseId: Id,
    clientRequestId: z.uuid({ error: 'clientRequestId must be a UUID' }),
    reAgentId: Id.optional(),
    rePropertyId: Id.optional(),
    createdByREAgentId: Id.optional(),
    /** What the visitor agreed to, and the wording the page showed them. */
    emailConsent: Flag.default(false),
    smsConsent: Flag.default(false),
    consentText: OptionalText(2000),
    /** A second, separate consent: share the details with the listing agent too (when another hosts). */
    listingAgentConsent: Flag.default(false),
    /** Signed in at a kiosk (a device the host set up for a queue of visitors), not the visitor's own. */
    kiosk: Flag.optional(),
    /** The sign-in waited on the device with no connection and is sent now. */
    savedOffline: Flag.optional(),
    /** Answers to the open house's custom questions, keyed by question id; all optional. */
    customAnswers: CustomAnswersInput,
  })
  .superRefine(
    (b, ctx) => {
      if ((b.emailConsent || b.smsConsent) && !b.consentText) {
        ctx.addIssue({
          code: 'custom',
          path: ['consentText'],
          message: 'The consent wording shown to the visitor is required with a consent',
        })
      }
    },
    whenValid('emailConsent', 'smsConsent', 'consentText'),
  )
export type GuestSignInBody = z.input<typeof GuestSignInBody>

/** An agent's own prospect (POST/PATCH /prospectmgmt/saveProspect); `openHouseId` adds the attendee. */
export const SaveProspectBody = z.object({
  ...prospectShape,
  openHouseId: Id.nullish(),
  /** Ignored: a prospect saved by an agent is that agent's. */
  createdByREAgentId: Id.optional(),
})
export type SaveProspectBody = z.input<typeof SaveProspectBody>

export const Prospect = z.object({
  id: z.number().int(),
  prospectFirstName: z.string(),
  prospectMiddleName: z.string().nullable(),
  prospectLastName: z.string(),
  prospectEmailId: z.string(),
  prospectPhoneNumber: z.string(),
  prospectAddress1: z.string().nullable(),
  prospectAddress2: z.string().nullable(),
  prospectCity: z.string().nullable(),
  prospectState: z.string().nullable(),
  prospectZipCode: z.string().nullable(),
  prospectZipPlus4: z.string().nullable(),
  prospectCounty: z.string().nullable(),
  prospectCountry: z.string().nullable(),
  currentHouseStatus: z.string().nullable(),
  homeBuyingTimelines: z.string().nullable(),
  /** null: the question was not answered (not the same as false, "No") */
  workingWithREAgentFlag: z.boolean().nullable(),
  bestTimeToContact: z.string().nullable(),
  heardAboutThisOpenHouse: z.string().nullable(),
  prospectNotification: z.string().nullable(),
  createdByREAgentId: z.number().int(),
  emailConsent: z.boolean(),
  smsConsent: z.boolean(),
  consentAt: z.string().nullable(),
  createdDate: z.string(),
  updatedDate: z.string(),
  /**
   * The caller's own lead. Another agent who may see it (listing or hosting agent of an open house it
   * attended) gets the email and phone masked, unless the guest agreed to share them with it.
   */
  ownProspect: z.boolean(),
  /** Email and phone are masked for the caller. */
  contactMasked: z.boolean(),
  /** Where the owner stands with the lead; null for an agent who is not its owner (the owner's business). */
  prospectStage: ProspectStage.nullable(),
  /** The owner's next follow-up, 'YYYY-MM-DD'; null when none is set or the caller is not the owner. */
  nextFollowUpDate: z.string().nullable(),
})
export type Prospect = z.infer<typeof Prospect>

/** A prospect in an open house's attendee list. */
export const OpenHouseProspect = Prospect.extend({
  attendeeId: z.number().int(),
  signedInAt: z.string(),
  /** The answers given at this visit to the open house's custom questions, in their order. */
  customAnswers: z.array(CustomAnswerSchema),
})
export type OpenHouseProspect = z.infer<typeof OpenHouseProspect>

/** What a public page may know of a visitor: never an email or phone number. */
export const PublicAttendee = z.object({
  firstName: z.string(),
  lastInitial: z.string(),
  signedInAt: z.string(),
})
export type PublicAttendee = z.infer<typeof PublicAttendee>

/** SPEC §3 "Attendee record"; the dates a client sends are ignored (API.md). */
export const AddAttendeeBody = z.object({
  openHouseId: Id,
  prospectId: Id,
  createdDate: z.string().optional(),
  updatedDate: z.string().optional(),
})
export type AddAttendeeBody = z.input<typeof AddAttendeeBody>

export const ProspectListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  /** SPEC §5: searches first or last name from 3 characters on; shorter returns the full list. */
  q: z.string().max(80).optional(),
})

/** The small CRM's sorts: newest first (SPEC's natural order), by last then first name, soonest follow-up. */
export const PROSPECT_SORTS = ['newest', 'name', 'followUp'] as const
export const ProspectSort = z.enum(PROSPECT_SORTS)
export type ProspectSort = z.infer<typeof ProspectSort>

/** A query flag: 'true'/'false' (or a boolean); absent means no filter. */
const QueryFlag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional()

/**
 * The agent's own list (GET getProspectsByREAgentId and its CSV export): the search of SPEC §5 plus
 * issue 13's sort and filters. Every filter narrows; none given is the whole list.
 */
export const OwnProspectListQuery = ProspectListQuery.extend({
  sort: ProspectSort.default('newest'),
  /** Only "Leads Without Realtor" (not working with an agent). */
  noRealtor: QueryFlag,
  timeline: HomeBuyingTimeline.optional(),
  stage: ProspectStage.optional(),
  /** Only those who attended this open house. */
  openHouseId: Id.optional(),
})
export type OwnProspectListQuery = z.input<typeof OwnProspectListQuery>
/** The filters alone, as the export takes them (it exports every match, not a page). */
export const ProspectExportQuery = OwnProspectListQuery.omit({ limit: true, offset: true })
export type ProspectExportQuery = z.input<typeof ProspectExportQuery>

/** The list's answer: a page of prospects and how many match in all (for the page controls). */
export const ProspectPage = z.object({ data: z.array(Prospect), total: z.number().int() })
export type ProspectPage = z.infer<typeof ProspectPage>

/** The owner's stage and next follow-up (PATCH updateProspectFollowUp); a field left out stays as it is. */
export const UpdateProspectFollowUpBody = z
  .object({
    prospectStage: ProspectStage.optional(),
    /** null or '' clears it. */
    nextFollowUpDate: z.union([IsoDate, z.literal('').transform(() => null), z.null()]).optional(),
  })
  .refine((b) => b.prospectStage !== undefined || b.nextFollowUpDate !== undefined, {
    error: 'Send a stage or a next follow-up date',
  })
export type UpdateProspectFollowUpBody = z.input<typeof UpdateProspectFollowUpBody>

export const PROSPECT_NOTE_MAX_LENGTH = 2000

/** A note the owner adds to its prospect (POST addProspectNote). */
export const AddProspectNoteBody = z.object({
  noteText: RequiredText('Note', PROSPECT_NOTE_MAX_LENGTH),
})
export type AddProspectNoteBody = z.input<typeof AddProspectNoteBody>

export const ProspectNote = z.object({
  id: z.number().int(),
  prospectId: z.number().int(),
  noteText: z.string(),
  createdDate: z.string(),
})
export type ProspectNote = z.infer<typeof ProspectNote>

/** One open house the agent's prospects may have come from: the list's open-house filter offers these. */
export const ProspectOpenHouseOption = z.object({
  openHouseId: z.number().int(),
  scheduledDate: z.string().nullable(),
  propertyAddress: z.string(),
})
export type ProspectOpenHouseOption = z.infer<typeof ProspectOpenHouseOption>
