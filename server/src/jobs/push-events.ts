import type { Trx } from '../db/transaction.ts'

/** What the push notifier needs of an open house just offered or claimed. */
export interface PushOpenHouse {
  id: number
  publishLevel: string
  publishLevelId: string | null
  listingReAgentId: number
  scheduledByReAgentId: number
  startsAt: Date | string | null
  address: string
  /** As the details show it: 'YYYY-MM-DD, 10:00 AM – 12:00 PM', or 'a date you pick'. */
  when: string
}

/**
 * What the services call to tell agents' browsers by Web Push (decision 050), inside the transaction
 * that makes the change: each writes one message per subscription and its outbox row. Implemented by
 * modules/push/notify.ts; it lives here, beside the outbox, so a module that notifies depends on no
 * other module for it.
 */
export interface PushEvents {
  /** An open house offered: every agent it reaches (by the policy) who wants it, with a claim capability. */
  offered(trx: Trx, oh: PushOpenHouse, except: number[]): Promise<void>
  /** An open house claimed: the offers not yet sent are dropped, the others replaced by who won. */
  claimed(oh: PushOpenHouse, winner: { id: number; name: string }): Promise<void>
  /**
   * Something about these agents (feedback arrived, a team invitation, a firm decision): one push to
   * each subscription of those who want the event. `body` is what a locked screen may show.
   */
  told(trx: Trx, agentIds: number[], message: PushNotice): Promise<void>
  /**
   * After a guest's sign-in committed: the agent at the door is told, unless one of its screens has the
   * open house's board open (it sees the guest there already). Written in a transaction of its own,
   * after the answer; nobody waits for it. The push names no guest, so the sign-ins of one open house
   * within a moment are told once (lib/coalesced.ts), and `notice` (a read) is asked only when a push
   * goes.
   */
  guestSignedIn(
    openHouseId: number,
    doorAgentId: number,
    notice: () => Promise<{ address: string; when: string }>,
  ): void
  /** The process is stopping: pushes not yet started are dropped. */
  stop(): void
}

export interface PushNotice {
  event: 'feedback.received' | 'team.invitation' | 'firm.decision' | 'guest.signedIn'
  title: string
  body: string
  /** The app's page the notification opens. */
  url: string
  /** Notifications with one tag replace each other on the device. */
  tag: string
  openHouseId?: number
}

/** No push (a command-line tool, tests of other things). */
export const noPushEvents: PushEvents = {
  offered: async () => {},
  claimed: async () => {},
  told: async () => {},
  guestSignedIn: () => {},
  stop: () => {},
}
