import { type OpenHouseDetails, type OpenHouseProspect, rooms } from '@porchlight/shared'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { CaptureDevice } from '../../db/types.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { toCsv } from '../../lib/csv.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import type { Access } from '../../policy/access.ts'
import { type EventSink, emitAfterCommit } from '../../realtime/events.ts'
import type { AgentService } from '../agents/service.ts'
import type { AttendeeService } from '../attendees/service.ts'
import type { FeedbackService } from '../feedback/service.ts'
import type { OpenHouseService } from '../open-houses/service.ts'
import type { ProspectService } from '../prospects/service.ts'

export interface ReportDeps {
  db: Db
  outbox: Outbox
  events: EventSink
  agents: AgentService
  openHouses: OpenHouseService
  prospects: ProspectService
  feedback: FeedbackService
  attendees: AttendeeService
  access: Access
}

/** Yes, No, or an empty cell for a guest who did not say (decision 038). */
function yesNoOrUnsaid(flag: boolean | null): string {
  return flag === null ? '' : flag ? 'Yes' : 'No'
}

/**
 * The attendee rows a report carries, as CSV under the same human headers as the prospect export
 * (First Name, Email…); a column for each custom question anyone answered, headed by its wording.
 */
export function attendeeCsv(attendees: OpenHouseProspect[]): string {
  const questions = new Map<number, string>()
  for (const a of attendees) for (const c of a.customAnswers) questions.set(c.questionId, c.question)
  return toCsv(
    attendees.map((a) => ({
      'Signed In At': a.signedInAt,
      'First Name': a.prospectFirstName,
      'Last Name': a.prospectLastName,
      Email: a.prospectEmailId,
      Phone: a.prospectPhoneNumber,
      'Working With an Agent': yesNoOrUnsaid(a.workingWithREAgentFlag),
      'Buying Timeline': a.homeBuyingTimelines ?? '',
      'Best Time to Contact': a.bestTimeToContact ?? '',
      'Heard About This Open House': a.heardAboutThisOpenHouse ?? '',
      ...Object.fromEntries(
        [...questions].map(([id, question]) => [
          question,
          a.customAnswers.find((c) => c.questionId === id)?.answer ?? '',
        ]),
      ),
    })),
  )
}

function when(oh: OpenHouseDetails): string {
  return oh.scheduledDate
    ? `${oh.scheduledDate}, ${oh.scheduledStartTime} – ${oh.scheduledEndTime}`
    : 'date to be picked'
}

const DEVICE_WORDS: Record<CaptureDevice, string> = {
  phone: 'on their own phone',
  tablet: 'on a tablet',
  computer: 'on a computer',
  kiosk: 'at your kiosk',
}

/** '5 on their own phone, 3 at your kiosk' (kinds with nobody left out; agents' own adds not counted). */
function deviceLine(captures: Array<{ captureDevice: CaptureDevice | null }>): string {
  const counts = new Map<CaptureDevice, number>()
  for (const { captureDevice } of captures) {
    if (captureDevice) counts.set(captureDevice, (counts.get(captureDevice) ?? 0) + 1)
  }
  return [...counts].map(([kind, n]) => `${n} ${DEVICE_WORDS[kind]}`).join(', ')
}

export function createReportService(d: ReportDeps) {
  async function hostedBy(caller: AgentRow, openHouseId: number): Promise<OpenHouseDetails> {
    await d.access.openHouse(caller, 'sendHostingReport', openHouseId)
    const oh = await d.openHouses.details(caller, openHouseId)
    if (oh.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', 'This open house was canceled')
    return oh
  }

  return {
    /** The host sends the listing agent the hosting report: attendees, leads without realtor, feedback, CSV. */
    async sendHostingReport(caller: AgentRow, openHouseId: number): Promise<void> {
      const oh = await hostedBy(caller, openHouseId)
      const listing = await d.agents.findById(oh.listingREAgentId)
      if (!listing) throw new NotFoundError()
      // The leads are the listing agent's: the report shows them as the listing agent sees them.
      const attendees = await d.prospects.listByOpenHouse(listing, openHouseId, 500, 0)
      const summary = await d.feedback.openHouseSummary(listing, openHouseId)
      const withoutRealtor = attendees.filter((a) => a.workingWithREAgentFlag === false).length
      await inTransaction(d.db, (trx) =>
        queueMail(
          trx,
          d.outbox,
          mailTemplates.hostingReport(listing.reAgentEmailId, {
            address: oh.reProperty.completePropertyAddress,
            when: when(oh),
            host: oh.hostingREAgentName ?? '',
            attendees: attendees.length,
            withoutRealtor,
            feedback: summary,
            csv: attendeeCsv(attendees),
          }),
        ),
      )
    },

    /**
     * When an open house ends, its host gets the capture receipt: how many signed in, on which kinds of
     * device, how many waited offline first, and the attendees as CSV; a listing agent that did not host
     * gets the same counts with the guests who agreed to share their details with it. Once per open
     * house, whatever number of jobs run (the end may have moved, a job may repeat).
     */
    async sendCaptureReceipt(openHouseId: number): Promise<'sent' | 'skipped'> {
      return inTransaction(d.db, async (trx) => {
        const taken = await d.attendees.takeCaptureReceipt(openHouseId, trx)
        // Nobody hosted it: nobody stood at the door to be told.
        if (!taken?.hostingReAgentId) return 'skipped'
        const [host, listing] = await Promise.all([
          d.agents.findById(taken.hostingReAgentId, trx),
          d.agents.findById(taken.listingReAgentId, trx),
        ])
        if (!host || !listing) return 'skipped'
        const oh = await d.openHouses.details(host, openHouseId)
        const captures = await d.attendees.captures(openHouseId, trx)
        const counts = {
          address: oh.reProperty.completePropertyAddress,
          when: when(oh),
          signedIn: captures.length,
          devices: deviceLine(captures),
          offline: captures.filter((c) => c.capturedOffline).length,
        }
        const hostList = await d.prospects.listByOpenHouse(host, openHouseId, 500, 0)
        await queueMail(
          trx,
          d.outbox,
          mailTemplates.captureReceipt(host.reAgentEmailId, {
            ...counts,
            csv: hostList.length ? attendeeCsv(hostList) : null,
          }),
        )
        if (listing.id !== host.id) {
          const consented = new Set(captures.filter((c) => c.listingAgentConsent).map((c) => c.id))
          const shared = hostList.filter((a) => consented.has(a.attendeeId))
          await queueMail(
            trx,
            d.outbox,
            mailTemplates.captureReceipt(listing.reAgentEmailId, {
              ...counts,
              shared: shared.length,
              csv: shared.length ? attendeeCsv(shared) : null,
            }),
          )
        }
        return 'sent'
      })
    },

    /** The listing agent asks the host for the report (SPEC §6: when another agent hosts). */
    async requestHostingReport(caller: AgentRow, openHouseId: number): Promise<void> {
      await d.access.openHouse(caller, 'requestHostingReport', openHouseId)
      const oh = await d.openHouses.details(caller, openHouseId)
      if (oh.hostingREAgentId === null || oh.hostingREAgentId === oh.listingREAgentId) {
        throw new ConflictError(
          'INVALID_STATE',
          'Another agent must host this open house to request its report',
        )
      }
      const host = await d.agents.findById(oh.hostingREAgentId)
      if (!host) throw new NotFoundError()
      await inTransaction(d.db, async (trx) => {
        await queueMail(
          trx,
          d.outbox,
          mailTemplates.reportRequest(host.reAgentEmailId, {
            address: oh.reProperty.completePropertyAddress,
            when: when(oh),
            listing: oh.listingREAgentName,
          }),
        )
        emitAfterCommit(
          d.events,
          trx,
          rooms.agent(host.id),
          'report.requested',
          { openHouseId, requestedByReAgentId: caller.id },
          openHouseId,
        )
      })
    },

    /** The host mails itself the attendee list as CSV. */
    async sendAttendeeReport(caller: AgentRow, openHouseId: number): Promise<void> {
      const oh = await hostedBy(caller, openHouseId)
      const attendees = await d.prospects.listByOpenHouse(caller, openHouseId, 500, 0)
      await inTransaction(d.db, (trx) =>
        queueMail(
          trx,
          d.outbox,
          mailTemplates.attendeeReport(caller.reAgentEmailId, {
            address: oh.reProperty.completePropertyAddress,
            when: when(oh),
            attendees: attendees.length,
            csv: attendeeCsv(attendees),
          }),
        ),
      )
    },
  }
}

export type ReportService = ReturnType<typeof createReportService>
