import {
  type AddAttendeeBody,
  completeAddress,
  mayKeepProspect,
  messages,
  type PublicAttendee,
  publicVisitorName,
  rooms,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { IntegrationRow } from '../../db/agent-integrations.ts'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { afterCommitted, inTransaction, onCommit, type Trx } from '../../db/transaction.ts'
import type { CaptureDevice, JsonValue } from '../../db/types.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import type { Access } from '../../policy/access.ts'
import type { EventSink } from '../../realtime/events.ts'
import type { StatsNotifier } from '../../realtime/stats.ts'
import type { AttendeeRepo, VisitColumns } from './repo.ts'

export { VISIT_COLUMNS, type VisitColumns } from './repo.ts'

type AddBody = z.output<typeof AddAttendeeBody>

export interface OpenHouseRef {
  id: number
  listingReAgentId: number
  hostingReAgentId: number | null
  openHouseCanceledFlag: boolean
  publishedAt: Date | null
  scheduledByReAgentId: number
  /** When it ends, as an instant; null while its date is still to pick. */
  endsAt: Date | null
}

/** The public side knows an open house only while it is on show: published, or hosted. */
export const onShow = (oh: Pick<OpenHouseRef, 'publishedAt' | 'hostingReAgentId'>) =>
  oh.publishedAt !== null || oh.hostingReAgentId !== null

export interface VisitorRef {
  id: number
  prospectFirstName: string
  prospectLastName: string
}

export const OPEN_HOUSE_CANCELED = 'This open house has been canceled.'

export interface AttendeeDeps {
  db: Db
  stats: StatsNotifier
  repo: AttendeeRepo
  events: EventSink
  access: Access
  webhooks: WebhookEvents
  /** Web Push: the agent at the door hears of a guest when its board is not open (decision 050). */
  push?: PushEvents
}

/** A guest's own visit: what it typed, and whether it agreed to share its details with the listing agent. */
export interface Visit {
  guestDetails: JsonValue
  listingAgentConsent: boolean
  captureDevice: CaptureDevice
  capturedOffline: boolean
  /** Answers to the open house's custom questions, keyed by question id. */
  customAnswers?: JsonValue | null
}

/** A visit as stored (an agent's own AddAttendee has no visit: its columns stay empty). */
export function visitColumns(visit: Visit | undefined): VisitColumns {
  return {
    guestDetails: visit ? JSON.stringify(visit.guestDetails) : null,
    listingAgentConsent: visit?.listingAgentConsent ?? false,
    captureDevice: visit?.captureDevice ?? null,
    capturedOffline: visit?.capturedOffline ?? false,
    customAnswers: visit?.customAnswers ? JSON.stringify(visit.customAnswers) : null,
  }
}

/** Who attended which open house; the one place that records an attendee and announces it. */
export function createAttendeeService(d: AttendeeDeps) {
  const { repo } = d

  async function openHouse(id: number, trx?: Db | Trx, message?: string): Promise<OpenHouseRef> {
    const row = await repo.openHouse(id, trx)
    if (!row) throw new NotFoundError(message)
    return row
  }

  /** `openHouse` for a guest sign-in: with what its agents have switched on, read in the same statement. */
  async function openHouseForSignIn(
    id: number,
    trx: Trx,
  ): Promise<{ oh: OpenHouseRef; integrations: IntegrationRow[] }> {
    const row = await repo.openHouseForSignIn(id, trx)
    if (!row) throw new NotFoundError()
    const { integrations, ...oh } = row
    return { oh, integrations }
  }

  /** SPEC §6: only the hosting agent manages attendees, and not on a canceled open house. */
  async function hostedBy(caller: AgentRow, openHouseId: number, trx?: Db | Trx): Promise<OpenHouseRef> {
    await d.access.openHouse(caller, 'manageAttendees', openHouseId, trx)
    const oh = await openHouse(openHouseId, trx)
    if (oh.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', OPEN_HOUSE_CANCELED)
    return oh
  }

  /**
   * Records that a visitor attended; a repeat is not an error (`created: false`). A new attendee is
   * announced once the transaction commits (`announce`).
   */
  async function record(
    trx: Trx,
    oh: OpenHouseRef,
    visitor: VisitorRef,
    visit: VisitColumns = visitColumns(undefined),
  ) {
    const row = await repo.insert(oh.id, visitor.id, visit, trx)
    if (!row) return { created: false as const }
    return announce(trx, oh, visitor, row)
  }

  /**
   * What follows a new attendee once committed: the host's board and the guest pages hear of it (first
   * name and last initial only), a stats change goes to the listing and hosting agents, and the agent at
   * the door gets its push. `later` defers each until the commit.
   */
  function told(
    later: (run: () => void | Promise<void>) => void,
    oh: Pick<OpenHouseRef, 'id' | 'listingReAgentId' | 'hostingReAgentId'>,
    visitor: VisitorRef,
    row: { id: number; createdDate: Date | string },
  ) {
    const name = publicVisitorName(visitor.prospectFirstName, visitor.prospectLastName)
    later(() =>
      d.events.emit(
        [rooms.openHouse(oh.id), rooms.openHousePublic(oh.id)],
        'attendee.added',
        { openHouseId: oh.id, ...name, signedInAt: new Date(row.createdDate).toISOString() },
        oh.id,
      ),
    )
    // The seller's report pages hear only that something changed: they refetch, and learn no name.
    later(() => d.events.emit(rooms.seller(oh.id), 'sellerReport.changed', { openHouseId: oh.id }))
    later(() => d.stats.changedNow([oh.listingReAgentId, oh.hostingReAgentId]))
    const push = d.push
    if (push) {
      // After the answer: a sign-in never waits for a look at who has the board open, nor for the read
      // of what the push says (made only when one goes).
      const door = oh.hostingReAgentId ?? oh.listingReAgentId
      later(() => push.guestSignedIn(oh.id, door, () => mailContext(oh.id)))
    }
  }

  /**
   * What follows a new attendee, stored here (`record`) or by a guest's first sign-in with its prospect
   * (prospects/repo.ts): `told` once the transaction commits, and the agents' webhooks and Follow Up
   * Boss get their events in the same transaction.
   */
  async function announce(
    trx: Trx,
    oh: OpenHouseRef,
    visitor: VisitorRef,
    row: { id: number; createdDate: Date | string },
  ) {
    told((run) => onCommit(trx, run), oh, visitor, row)
    await d.webhooks.attendeeAdded(trx, {
      openHouseId: oh.id,
      prospectId: visitor.id,
      agentIds: [oh.listingReAgentId, oh.hostingReAgentId],
    })
    return { created: true as const, id: row.id }
  }

  /**
   * `announce` for a visit written by one statement on its own, already committed, at an open house
   * whose agents have no integrations (the statement wrote only if so): no webhook event to write.
   */
  function announceCommitted(
    oh: Pick<OpenHouseRef, 'id' | 'listingReAgentId' | 'hostingReAgentId'>,
    visitor: VisitorRef,
    row: { id: number; createdDate: Date | string },
  ): Promise<void> {
    const pending: Array<() => void | Promise<void>> = []
    told((run) => pending.push(run), oh, visitor, row)
    return afterCommitted(pending)
  }

  /** The open house as a mail about a visit names it. */
  async function mailContext(openHouseId: number, trx?: Db | Trx) {
    const c = await repo.mailContext(openHouseId, trx)
    const agent = c.hostFirstName
      ? `${c.hostFirstName} ${c.hostLastName}`
      : `${c.listingFirstName} ${c.listingLastName}`
    return {
      address: completeAddress(c),
      when: c.scheduledDate ? `${c.scheduledDate}, ${c.scheduledStartTime} – ${c.scheduledEndTime}` : '',
      agent,
      /** Where a guest's reply goes: the agent it met, not our no-reply sender. */
      agentEmail: c.hostEmail ?? c.listingEmail,
      shareFeedbackWith: c.emailIdForSharingOhFeedback,
    }
  }

  return {
    openHouse,
    openHouseForSignIn,
    hostedBy,
    record,
    announce,
    announceCommitted,
    mailContext,
    captures: (openHouseId: number, trx?: Db | Trx) => repo.captures(openHouseId, trx),
    takeCaptureReceipt: (openHouseId: number, trx: Trx) => repo.takeCaptureReceipt(openHouseId, trx),

    /** The listing agent, its scheduler or the host; others may not know the open house exists. */
    async involving(caller: AgentRow, openHouseId: number, message?: string): Promise<OpenHouseRef> {
      try {
        await d.access.openHouse(caller, 'viewAttendees', openHouseId)
      } catch (err) {
        if (message && err instanceof NotFoundError) throw new NotFoundError(message)
        throw err
      }
      return openHouse(openHouseId, undefined, message)
    },

    isAttendee(openHouseId: number, prospectId: number, trx?: Db | Trx): Promise<boolean> {
      return repo.exists(openHouseId, prospectId, trx)
    },

    /** AddAttendee: the host adds one of its own prospects; a repeat is a conflict. */
    async add(caller: AgentRow, body: AddBody): Promise<{ id: number }> {
      return inTransaction(d.db, async (trx) => {
        const oh = await hostedBy(caller, body.openHouseId, trx)
        const prospect = await repo.prospect(body.prospectId, trx)
        if (!prospect || !mayKeepProspect(caller, { createdByREAgentId: prospect.createdByReAgentId }))
          throw new NotFoundError()
        const added = await record(trx, oh, prospect)
        if (!added.created) throw new ConflictError('ALREADY_ATTENDEE', messages.addAttendeeFailed)
        return { id: added.id }
      })
    },

    async publicList(openHouseId: number, limit: number, offset: number): Promise<PublicAttendee[]> {
      if (!onShow(await openHouse(openHouseId))) throw new NotFoundError()
      const rows = await repo.publicList(openHouseId, limit, offset)
      return rows.map((r) => ({
        ...publicVisitorName(r.prospectFirstName, r.prospectLastName),
        signedInAt: new Date(r.createdDate).toISOString(),
      }))
    },
  }
}

export type AttendeeService = ReturnType<typeof createAttendeeService>
