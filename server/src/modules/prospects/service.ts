import {
  type GuestSignInBody,
  maskEmail,
  maskPhone,
  mayKeepProspect,
  messages,
  OPEN_HOUSE_ENDED,
  type OpenHouseProspect,
  type Prospect,
  prospectSearchTerm,
  prospectView,
  type SaveProspectBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { uniqueViolation } from '../../db/errors.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { JsonValue } from '../../db/types.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import { deviceKind } from '../../lib/device-kind.ts'
import { metrics } from '../../lib/metrics.ts'
import type { Access } from '../../policy/access.ts'
import { type AttendeeService, OPEN_HOUSE_CANCELED, visitColumns } from '../attendees/service.ts'
import type { CustomQuestions } from '../custom-questions/service.ts'
import { createProspectCrm } from './crm.ts'
import { doorAgent, doorRefusal } from './door.ts'
import { createProspectNoteRepo } from './note-repo.ts'
import type { ProspectRepo, ProspectRow, SignInValues } from './repo.ts'

type GuestBody = z.output<typeof GuestSignInBody>
type AgentBody = z.output<typeof SaveProspectBody>

const iso = (d: Date | string) => new Date(d).toISOString()

/**
 * The API shape. An agent who may see but does not own the prospect gets its contact details masked,
 * unless the guest agreed to share them with it (`full`, the listing agent's consent box).
 */
export function toProspect(
  row: ProspectRow,
  viewerId: number,
  full = mayKeepProspect({ id: viewerId }, { createdByREAgentId: row.createdByReAgentId }),
): Prospect {
  const own = mayKeepProspect({ id: viewerId }, { createdByREAgentId: row.createdByReAgentId })
  return {
    id: row.id,
    prospectFirstName: row.prospectFirstName,
    prospectMiddleName: row.prospectMiddleName,
    prospectLastName: row.prospectLastName,
    prospectEmailId: full ? row.prospectEmailId : maskEmail(row.prospectEmailId),
    prospectPhoneNumber: full ? row.prospectPhoneNumber : maskPhone(row.prospectPhoneNumber),
    prospectAddress1: row.prospectAddress1,
    prospectAddress2: row.prospectAddress2,
    prospectCity: row.prospectCity,
    prospectState: row.prospectState,
    prospectZipCode: row.prospectZipCode,
    prospectZipPlus4: row.prospectZipPlus4,
    prospectCounty: row.prospectCounty,
    prospectCountry: row.prospectCountry,
    currentHouseStatus: row.currentHouseStatus,
    homeBuyingTimelines: row.homeBuyingTimelines,
    workingWithREAgentFlag: row.workingWithReAgentFlag,
    bestTimeToContact: row.bestTimeToContact,
    heardAboutThisOpenHouse: row.heardAboutThisOpenHouse,
    prospectNotification: row.prospectNotification,
    createdByREAgentId: row.createdByReAgentId,
    emailConsent: row.emailConsent,
    smsConsent: row.smsConsent,
    consentAt: row.consentAt === null ? null : iso(row.consentAt),
    createdDate: iso(row.createdDate),
    updatedDate: iso(row.updatedDate),
    ownProspect: own,
    contactMasked: !full,
    // The owner's own business with the lead: another agent who may see the guest does not see it.
    prospectStage: own ? row.prospectStage : null,
    nextFollowUpDate: own ? row.nextFollowUpDate : null,
  }
}

/** The form's fields as table columns, but for the working-with-an-agent flag, which may be absent. */
function detailsOf(body: GuestBody | AgentBody) {
  return {
    prospectFirstName: body.prospectFirstName,
    prospectMiddleName: body.prospectMiddleName,
    prospectLastName: body.prospectLastName,
    prospectEmailId: body.prospectEmailId,
    prospectPhoneNumber: body.prospectPhoneNumber,
    prospectAddress1: body.prospectAddress1,
    prospectAddress2: body.prospectAddress2,
    prospectCity: body.prospectCity,
    prospectState: body.prospectState,
    prospectZipCode: body.prospectZipCode,
    prospectZipPlus4: body.prospectZipPlus4,
    prospectCounty: body.prospectCounty,
    prospectCountry: body.prospectCountry,
    currentHouseStatus: body.currentHouseStatus,
    homeBuyingTimelines: body.homeBuyingTimelines,
    bestTimeToContact: body.bestTimeToContact,
    heardAboutThisOpenHouse: body.heardAboutThisOpenHouse,
    prospectNotification: body.prospectNotification,
  }
}

const CLIENT_REQUEST_ID_KEY = 'open_house_attendee_client_request_id_key'

const prospectExists = () => new ConflictError('PROSPECT_EXISTS', messages.propertySaveFailed)

export interface ProspectDeps {
  db: Db
  outbox: Outbox
  repo: ProspectRepo
  attendees: AttendeeService
  access: Access
  webhooks: WebhookEvents
  questions: CustomQuestions
}

export function createProspectService(d: ProspectDeps) {
  const { repo, attendees } = d

  /** The owner edits; anyone else learns nothing. */
  async function owned(caller: AgentRow, id: number): Promise<ProspectRow> {
    const row = await repo.getById(id)
    if (!row || !mayKeepProspect(caller, { createdByREAgentId: row.createdByReAgentId }))
      throw new NotFoundError()
    return row
  }

  /**
   * The sign-in statement's values, but the door's (its open house, whose lead the guest is, whether its
   * box for the listing agent counts: the statement takes them from the open house's row, door.ts).
   */
  function signInValues(
    body: GuestBody,
    device: { userAgent?: string },
    newToken: { tokenHash: string },
    customAnswers: { byId: JsonValue; worded: Record<string, string> } | null,
  ): SignInValues {
    // The moment the visitor made its choice under the wording shown (a refusal is a choice too).
    const choiceMade = body.emailConsent || body.smsConsent || body.consentText !== null
    const consentAt = choiceMade ? new Date() : null
    const workingWithReAgentFlag = body.workingWithREAgentFlag ?? null
    // What the visitor chose under the wording shown: kept with the visit and on the prospect alike.
    const choice = {
      emailConsent: body.emailConsent,
      smsConsent: body.smsConsent,
      consentText: body.consentText,
    }
    // Each object is the form's fields (detailsOf) with the rest assigned to it, never spread into a new
    // one: on Node 20 a spread of a form-sized object followed by more properties makes V8 build a new
    // hidden class on every call (about 20 µs a property added, and their garbage), which was most of a
    // sign-in's values' cost (decision 066). Assigned in the same order each call, the classes are V8's
    // cached transitions.
    const visit = visitColumns({
      guestDetails: Object.assign(
        detailsOf(body),
        { workingWithREAgentFlag: workingWithReAgentFlag },
        choice,
        {
          consentAt: consentAt?.toISOString() ?? null,
          // As the guest ticked it; the statement keeps it only where another agent hosts (door.ts).
          listingAgentConsent: body.listingAgentConsent,
        },
        // The questions as the guest read them: Follow Up Boss and the visit's record keep the wording.
        customAnswers ? { customAnswers: customAnswers.worded } : null,
      ),
      listingAgentConsent: body.listingAgentConsent,
      captureDevice: deviceKind(device.userAgent, body.kiosk ?? false),
      capturedOffline: body.savedOffline ?? false,
      customAnswers: customAnswers?.byId ?? null,
    })
    // Decision 029: an email is not an identity. A returning visitor (same email) is matched to the
    // agent's prospect, which it never overwrites (what it typed stays with this visit), but it gets a
    // visit of its own and a token for that visit only, and the answer names the visit, never the
    // prospect: whoever types a visitor's email learns nothing of it and can touch none of its visits.
    return Object.assign(detailsOf(body), { workingWithReAgentFlag }, choice, { consentAt }, visit, {
      clientRequestId: body.clientRequestId,
      tokenHash: newToken.tokenHash,
      openHouseId: body.openHouseId,
      // Once per visit, and only for a guest who agreed to email: the opt-in, the thank-you and the
      // follow-up, which the worker does in batches (consent service, welcomeGuests; decision 053).
      welcome: body.emailConsent,
    })
  }

  /**
   * The plain sign-in (no custom answers) as one statement, without BEGIN and COMMIT (decision 061): it
   * writes only at an open house open for sign-in whose agents have no integrations (so no webhook
   * event is owed). Undefined when it wrote nothing: the transaction then answers as it always has.
   */
  async function guestSignInAtDoor(
    body: GuestBody,
    device: { userAgent?: string },
  ): Promise<{ id: number; guestToken: string } | undefined> {
    if (Object.keys(body.customAnswers).length > 0) return undefined
    const newToken = d.access.newGuestToken()
    const signedIn = await repo.signInGuestAtDoor(signInValues(body, device, newToken, null), Date.now())
    if (!signedIn) return undefined
    await attendees.announceCommitted(
      {
        id: body.openHouseId,
        listingReAgentId: signedIn.listingReAgentId,
        hostingReAgentId: signedIn.hostingReAgentId,
      },
      {
        id: signedIn.prospectId,
        prospectFirstName: body.prospectFirstName,
        prospectLastName: body.prospectLastName,
      },
      signedIn,
    )
    return { id: signedIn.id, guestToken: newToken.token }
  }

  /** One try at a sign-in: its open house checked, the visit stored, whoever must hear of it told. */
  async function guestSignInOnce(
    body: GuestBody,
    device: { userAgent?: string },
    /** The insert met this clientRequestId already: a repeat of a sign-in, to be answered as the first. */
    repeated: boolean,
  ): Promise<{ id: number; guestToken: string }> {
    return inTransaction(d.db, async (trx) => {
      const { oh, integrations } = await attendees.openHouseForSignIn(body.openHouseId, trx)
      const refused = doorRefusal(oh)
      if (refused === 'unknown') throw new NotFoundError()
      if (refused === 'canceled') throw new ConflictError('INVALID_STATE', OPEN_HOUSE_CANCELED)
      if (refused === 'ended') throw new ConflictError('INVALID_STATE', OPEN_HOUSE_ENDED)
      // SPEC §6: in the QR-code flow the lead is the agent's at the door (the QR code and the page name it).
      const owner = doorAgent(oh)
      // A repeat is looked for only after the insert met its clientRequestId (the unique index answers
      // for every first attempt, so no sign-in pays a read for the rare repeat). It is answered with its
      // first visit and a new token for that visit: the first answer never reached the phone.
      if (repeated) {
        const first = await repo.visitByClientRequestId(body.clientRequestId, trx)
        if (first && (first.createdByReAgentId !== owner || first.openHouseId !== oh.id)) {
          throw new ConflictError('CLIENT_REQUEST_REUSED', 'This sign-in was already used elsewhere')
        }
        if (first) return { id: first.id, guestToken: await d.access.issueGuestToken(trx, first) }
      }
      const customAnswers = await d.questions.checkAnswers(trx, oh.id, body.customAnswers)
      // Reads before the visit is written: the visit takes its agents' statistics locks until the
      // commit, so as little as possible comes after it.
      await d.webhooks.prepare(trx, [oh.listingReAgentId, oh.hostingReAgentId], integrations)
      const newToken = d.access.newGuestToken()
      const signedIn = await repo.signInGuest(signInValues(body, device, newToken, customAnswers), trx)
      // The board and the public list name the visit as the guest typed it, not the agent's record.
      await attendees.announce(
        trx,
        oh,
        {
          id: signedIn.prospectId,
          prospectFirstName: body.prospectFirstName,
          prospectLastName: body.prospectLastName,
        },
        signedIn,
      )
      // Once per visit: prospect.created (a new lead) to the agent's endpoints, the Follow Up Boss event.
      await d.webhooks.guestSignedIn(trx, {
        openHouseId: oh.id,
        prospectId: signedIn.prospectId,
        ownerId: owner,
        newProspect: signedIn.created,
        // A sign-in kept offline carries the moment the guest made it on the phone.
        capturedAt: body.savedOffline ? (body.createdDate ?? null) : null,
      })
      return { id: signedIn.id, guestToken: newToken.token }
    })
  }

  // The own list, its export, and the owner's stage, follow-up date and notes (crm.ts).
  const crm = createProspectCrm({
    repo,
    notes: createProspectNoteRepo(d.db),
    access: d.access,
    toProspect,
    questions: d.questions,
  })

  return {
    ...crm,

    /**
     * The QR-code sign-in: one transaction makes or finds the agent's prospect and records the visit.
     * It answers the visit's id and a token for that visit only; a retry (same clientRequestId) gets the
     * same visit, a returning visitor (same email) a visit of its own (decision 029).
     */
    async guestSignIn(
      body: GuestBody,
      device: { userAgent?: string } = {},
    ): Promise<{ id: number; guestToken: string }> {
      const signIn = async (repeated: boolean) => {
        const signedIn = await guestSignInOnce(body, device, repeated)
        metrics.count('guestSignIn', { outcome: repeated ? 'repeated' : 'created' })
        return signedIn
      }
      try {
        const plain = await guestSignInAtDoor(body, device)
        if (plain) {
          metrics.count('guestSignIn', { outcome: 'created' })
          return plain
        }
        return await signIn(false)
      } catch (err) {
        // A repeat of a sign-in (a retry, or two first attempts racing) met the clientRequestId: it now
        // finds the first.
        if (uniqueViolation(err) === CLIENT_REQUEST_ID_KEY) return signIn(true)
        throw err
      }
    },

    async create(caller: AgentRow, body: AgentBody): Promise<Prospect> {
      const row = await inTransaction(d.db, async (trx) => {
        const oh = body.openHouseId ? await attendees.hostedBy(caller, body.openHouseId, trx) : null
        const created = await repo
          .create(
            {
              ...detailsOf(body),
              workingWithReAgentFlag: body.workingWithREAgentFlag ?? null,
              createdByReAgentId: caller.id,
            },
            trx,
          )
          .catch((err) => {
            throw uniqueViolation(err) !== null ? prospectExists() : err
          })
        if (oh) await attendees.record(trx, oh, created)
        return created
      })
      return toProspect(row, caller.id)
    },

    async update(caller: AgentRow, id: number, body: AgentBody): Promise<Prospect> {
      const current = await owned(caller, id)
      const row = await inTransaction(d.db, async (trx) => {
        const oh = body.openHouseId ? await attendees.hostedBy(caller, body.openHouseId, trx) : null
        const updated = await repo
          .update(
            id,
            {
              ...detailsOf(body),
              workingWithReAgentFlag:
                body.workingWithREAgentFlag === undefined
                  ? current.workingWithReAgentFlag
                  : body.workingWithREAgentFlag,
            },
            trx,
          )
          .catch((err) => {
            throw uniqueViolation(err) !== null ? prospectExists() : err
          })
        if (oh) await attendees.record(trx, oh, updated)
        return updated
      })
      return toProspect(row, caller.id)
    },

    async listOwnNotIn(
      caller: AgentRow,
      openHouseId: number,
      q: { q?: string; limit: number; offset: number },
    ) {
      await attendees.involving(caller, openHouseId)
      const rows = await repo.listByAgentNotIn(caller.id, openHouseId, {
        ...q,
        term: prospectSearchTerm(q.q),
      })
      return rows.map((r) => toProspect(r, caller.id))
    },

    /**
     * The listing agent, its scheduler or the host sees who came: its own leads in full, the listing
     * agent also those who agreed to share their details with it; the others masked.
     */
    async listByOpenHouse(
      caller: AgentRow,
      openHouseId: number,
      limit: number,
      offset: number,
    ): Promise<OpenHouseProspect[]> {
      const oh = await attendees.involving(caller, openHouseId)
      const actor = await d.access.actor(caller)
      const rows = await repo.listByOpenHouse(openHouseId, limit, offset)
      const questions = (await d.questions.wording([openHouseId])).get(openHouseId)
      return rows.map(({ attendeeId, signedInAt, listingAgentConsent, customAnswers, ...row }) => {
        const view = prospectView(actor, {
          createdByREAgentId: row.createdByReAgentId,
          visits: [
            {
              listingREAgentId: oh.listingReAgentId,
              hostingREAgentId: oh.hostingReAgentId,
              scheduledByREAgentId: oh.scheduledByReAgentId,
              listingAgentConsent,
            },
          ],
        })
        return {
          ...toProspect(row, caller.id, view === 'full'),
          attendeeId,
          signedInAt: iso(signedInAt),
          customAnswers: d.questions.answersOf(questions, customAnswers),
        }
      })
    },

    /** The owner, or the listing or hosting agent of an open house the prospect attended (policy). */
    async details(caller: AgentRow, id: number): Promise<Prospect> {
      const [facts, actor] = await Promise.all([
        d.access.prospectFacts(id, caller.id),
        d.access.actor(caller),
      ])
      const view = facts && prospectView(actor, facts)
      const row = view ? await repo.getById(id) : undefined
      if (!row) throw new NotFoundError()
      return toProspect(row, caller.id, view === 'full')
    },
  }
}

export type ProspectService = ReturnType<typeof createProspectService>
