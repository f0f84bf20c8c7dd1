import {
  FEEDBACK_RATING_FIELDS,
  type Feedback,
  type FeedbackRatingField,
  type FeedbackSummary,
  messages,
  rooms,
  type SaveFeedbackBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import { pick } from '../../lib/pick.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import type { Access } from '../../policy/access.ts'
import { type EventSink, emitAfterCommit } from '../../realtime/events.ts'
import { type AttendeeService, OPEN_HOUSE_CANCELED } from '../attendees/service.ts'
import type { FeedbackRepo, FeedbackRow } from './repo.ts'

type Body = z.output<typeof SaveFeedbackBody>
type Ratings = Record<FeedbackRatingField, number | null>

const ratingsOf = (source: Ratings): Ratings => pick(source, FEEDBACK_RATING_FIELDS)

/**
 * The guest's answer: `prospectId` is the id its sign-in answered (its visit's, decision 029), never the
 * agent's prospect behind it.
 */
export function toFeedback(row: FeedbackRow, visitId: number): Feedback {
  return {
    id: row.id,
    openHouseId: row.openHouseId,
    prospectId: visitId,
    hostingREAgentId: row.hostingReAgentId,
    feedbackText: row.feedbackText,
    ...ratingsOf(row),
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}

export interface FeedbackDeps {
  db: Db
  outbox: Outbox
  repo: FeedbackRepo
  attendees: AttendeeService
  events: EventSink
  access: Access
  webhooks: WebhookEvents
  /** Web Push: the listing agent and the host are told feedback arrived (decision 050). */
  push?: PushEvents
}

export function createFeedbackService(d: FeedbackDeps) {
  const { repo, attendees } = d

  /**
   * A visitor gives feedback on its own visit, proven by the guest token its sign-in answered (never by
   * ids alone, nor by an email): the token opens that visit only, and the body's `prospectId` must be
   * the id the sign-in answered (the visit's). The web shows SPEC's one failure text.
   */
  async function attendedOpenHouse(body: Body) {
    const visit = await d.access.guestVisit(body.guestToken, body.openHouseId)
    if (!visit || body.prospectId !== visit.id) {
      throw new NotFoundError(messages.feedbackSaveFailed)
    }
    const oh = await attendees.openHouse(body.openHouseId, undefined, messages.feedbackSaveFailed)
    if (oh.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', OPEN_HOUSE_CANCELED)
    return { oh, visit }
  }

  async function summary(scope: { openHouseId: number } | { hostingReAgentId: number }) {
    const [row, texts] = await Promise.all([repo.averages(scope), repo.texts(scope)])
    const figures = row as unknown as Record<string, number | null>
    const ratingCounts = Object.fromEntries(
      FEEDBACK_RATING_FIELDS.map((f) => [f, Number(figures[`${f}Count`] ?? 0)]),
    ) as FeedbackSummary['ratingCounts']
    return {
      count: Number(row.count),
      averages: ratingsOf(row as unknown as Ratings),
      ratingCounts,
      texts,
    } satisfies FeedbackSummary
  }

  return {
    /** One per visit; the hosting agent rated is the open house's at this moment. */
    async submit(body: Body): Promise<Feedback> {
      const { oh, visit } = await attendedOpenHouse(body)
      const row = await inTransaction(d.db, async (trx) => {
        const created = await repo
          .create(
            {
              openHouseId: oh.id,
              prospectId: visit.prospectId,
              attendeeId: visit.id,
              hostingReAgentId: oh.hostingReAgentId,
              feedbackText: body.feedbackText,
              ...ratingsOf(body),
            },
            trx,
          )
          .catch((err) => {
            if (isUniqueViolation(err))
              throw new ConflictError('FEEDBACK_EXISTS', messages.feedbackSaveFailed)
            throw err
          })
        emitAfterCommit(
          d.events,
          trx,
          rooms.openHouse(oh.id),
          'feedback.submitted',
          { openHouseId: oh.id, feedbackId: created.id },
          oh.id,
        )
        // The seller's report pages refetch (its averages and comments changed).
        emitAfterCommit(d.events, trx, rooms.seller(oh.id), 'sellerReport.changed', { openHouseId: oh.id })
        await d.webhooks.feedbackSubmitted(trx, created.id)
        // SPEC §3 emailIdForSharingOHFeedback: the listing agent chose someone to receive feedback.
        const shown = await attendees.mailContext(oh.id, trx)
        const told = [oh.listingReAgentId, oh.hostingReAgentId].filter((id): id is number => id !== null)
        await d.push?.told(trx, told, {
          event: 'feedback.received',
          title: 'Feedback',
          body: shown.when ? `${shown.address} · ${shown.when}` : shown.address,
          url: `/openhouses/schedule/${oh.id}/manage`,
          tag: `feedback-${oh.id}`,
          openHouseId: oh.id,
        })
        if (shown.shareFeedbackWith) {
          const given = toFeedback(created, visit.id)
          await queueMail(
            trx,
            d.outbox,
            mailTemplates.feedbackShare(shown.shareFeedbackWith, {
              ...shown,
              ratings: given,
              text: given.feedbackText,
            }),
          )
        }
        return created
      })
      return toFeedback(row, visit.id)
    },

    /** The visitor edits its feedback: only the feedback given at the visit its token opens. */
    async edit(id: number, body: Body): Promise<Feedback> {
      const { oh, visit } = await attendedOpenHouse(body)
      const row = await inTransaction(d.db, async (trx) => {
        const updated = await repo.update(
          id,
          { openHouseId: oh.id, attendeeId: visit.id },
          { feedbackText: body.feedbackText, ...ratingsOf(body) },
          trx,
        )
        if (!updated) throw new NotFoundError(messages.feedbackSaveFailed)
        emitAfterCommit(
          d.events,
          trx,
          rooms.openHouse(oh.id),
          'feedback.submitted',
          { openHouseId: oh.id, feedbackId: updated.id },
          oh.id,
        )
        // The seller's report pages refetch (its averages and comments changed).
        emitAfterCommit(d.events, trx, rooms.seller(oh.id), 'sellerReport.changed', { openHouseId: oh.id })
        return updated
      })
      return toFeedback(row, visit.id)
    },

    /** The listing or hosting agent of the open house. */
    async openHouseSummary(caller: AgentRow, openHouseId: number): Promise<FeedbackSummary> {
      await attendees.involving(caller, openHouseId, messages.feedbackSummaryLoadFailed)
      return summary({ openHouseId })
    },

    /** An agent's own: feedback given on the open houses it hosted. */
    async agentSummary(caller: AgentRow): Promise<FeedbackSummary> {
      return summary({ hostingReAgentId: caller.id })
    },
  }
}

export type FeedbackService = ReturnType<typeof createFeedbackService>
