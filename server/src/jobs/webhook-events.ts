import type { WebhookEvent, WITHDRAWN_BY } from '@porchlight/shared'
import type { IntegrationRow } from '../db/agent-integrations.ts'
import type { Trx } from '../db/transaction.ts'

type OpenHouseEvent = Extract<
  WebhookEvent,
  'openHouse.published' | 'openHouse.claimed' | 'openHouse.canceled'
>

/** When an open house takes place, as its row holds it. */
export interface ScheduleRow {
  scheduledDate: string | null
  scheduledStartTime: string
  scheduledEndTime: string
  openHouseTimezone: string
  startsAt: Date | string | null
  endsAt: Date | string | null
}

/**
 * What the services call to tell agents' webhook endpoints (and Follow Up Boss) about a change, inside
 * the transaction that makes it: each writes one delivery per listening endpoint, with the whole payload
 * as it stands at that moment, and the outbox row that sends it, so a rolled-back change is never told.
 * Implemented by modules/webhooks/events.ts; it lives here, beside the outbox, so a module that emits
 * depends on no other module for it.
 */
export interface WebhookEvents {
  /**
   * Reads, once per transaction, what these agents (and their teams) have switched on; the events below
   * read it themselves when not asked first. A sign-in asks before it writes the visit, so the locks the
   * visit takes are held for as few statements as possible; it passes `read`, the rows its first
   * statement brought (`openHouseIntegrations`), and pays no statement here.
   */
  prepare(trx: Trx, agentIds: Array<number | null>, read?: IntegrationRow[]): Promise<void>
  /**
   * A QR-code sign-in: prospect.created when it made the prospect, and the Follow Up Boss event.
   * `capturedAt`: the time a sign-in kept offline on the guest's phone says it was made there.
   */
  guestSignedIn(
    trx: Trx,
    v: {
      openHouseId: number
      prospectId: number
      ownerId: number
      newProspect: boolean
      capturedAt?: string | null
    },
  ): Promise<void>
  /** `agentIds`: the open house's listing and hosting agents (the prospect's owner is one of them). */
  attendeeAdded(
    trx: Trx,
    v: { openHouseId: number; prospectId: number; agentIds: Array<number | null> },
  ): Promise<void>
  feedbackSubmitted(trx: Trx, feedbackId: number): Promise<void>
  openHouseChanged(trx: Trx, event: OpenHouseEvent, openHouseId: number): Promise<void>
  /**
   * The same, for a change made by one statement outside a transaction (a claim, a cancel): written
   * right after it, in a transaction of its own only when some endpoint listens.
   */
  openHouseChangedAfter(event: OpenHouseEvent, openHouseId: number): Promise<void>
  /**
   * The date or times changed (an edit, or a claimer fixing a flexible date): told with `previous`, when it
   * was to take place before, if it differs from now.
   */
  openHouseRescheduled(trx: Trx, openHouseId: number, previous: ScheduleRow): Promise<void>
  /**
   * The host withdrew from hosting (`trx` null: its one statement has committed), or the listing agent
   * took back its offer to host: told to the listing agent and the host it had.
   */
  openHouseWithdrawn(
    trx: Trx | null,
    openHouseId: number,
    v: { withdrawnBy: (typeof WITHDRAWN_BY)[number]; previousHostId: number | null },
  ): Promise<void>
  /** For a consent change (the guest's unsubscribe, the agent's edit): told to the prospect's owner. */
  consentChanged(trx: Trx, prospectId: number): Promise<void>
}
