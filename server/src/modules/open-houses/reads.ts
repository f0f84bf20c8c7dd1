import type { Actor, OpenHouseDetails, PublicOpenHouse } from '@porchlight/shared'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import type { Trx } from '../../db/transaction.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import { eventFileOf } from '../calendar/feed.ts'
import type { OpenHouseDeps } from './deps.ts'
import { toDetails } from './mapping.ts'
import type { OpenHouseRepo } from './repo.ts'

export async function detailsOrThrow(
  repo: OpenHouseRepo,
  id: number,
  viewer?: Actor,
  trx?: Db | Trx,
): Promise<OpenHouseDetails> {
  const row = await repo.details(id, trx)
  if (!row) throw new NotFoundError()
  return toDetails(row, viewer)
}

export function createOpenHouseReads(d: Pick<OpenHouseDeps, 'repo' | 'access' | 'questions' | 'config'>) {
  const { repo } = d

  return {
    /** The listing agent, its scheduler, the host, or an agent it was offered to (who sees who claimed it). */
    async details(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'view', id)
      const oh = await detailsOrThrow(repo, id, await d.access.actor(caller))
      return { ...oh, customQuestions: await d.questions.list(id) }
    },

    /** For the guest pages: only an open house on show (published or hosted) exists for the public. */
    async publicDetails(id: number): Promise<PublicOpenHouse> {
      const oh = await detailsOrThrow(repo, id)
      if (!oh.published && oh.hostingREAgentId === null) throw new NotFoundError()
      return {
        id: oh.id,
        rePropertyId: oh.rePropertyId,
        openHouseFor: oh.openHouseFor,
        scheduledDate: oh.scheduledDate,
        scheduledStartTime: oh.scheduledStartTime,
        scheduledEndTime: oh.scheduledEndTime,
        openHouseTimezone: oh.openHouseTimezone,
        openHouseCanceledFlag: oh.openHouseCanceledFlag,
        endsAt: oh.endsAt,
        reProperty: oh.reProperty,
        listingREAgentName: oh.listingREAgentName,
        hostingREAgentName: oh.hostingREAgentName,
        customQuestions: await d.questions.list(id),
      }
    },

    async upcoming(caller: AgentRow, limit: number, offset: number) {
      const who = await d.access.actor(caller)
      return (await repo.upcoming(who, limit, offset)).map((r) => toDetails(r, who))
    },
    async past(caller: AgentRow, limit: number, offset: number) {
      const who = await d.access.actor(caller)
      return (await repo.past(who, limit, offset)).map((r) => toDetails(r, who))
    },
    async availableToHost(caller: AgentRow, limit: number, offset: number) {
      const who = await d.access.actor(caller)
      return (await repo.availableToHost(who, limit, offset)).map((r) => toDetails(r, who))
    },

    /**
     * The host's and listing agent's "Add to calendar": the event as an .ics file. An open house whose
     * date is still to be picked has no event yet (409, its state, not the caller's rights).
     */
    async forCalendar(caller: AgentRow, id: number): Promise<{ fileName: string; body: string }> {
      await d.access.openHouse(caller, 'viewAttendees', id)
      const oh = await detailsOrThrow(repo, id, await d.access.actor(caller))
      const { startsAt, endsAt } = oh
      if (!startsAt || !endsAt) {
        throw new ConflictError('INVALID_STATE', 'Pick the date and time of this open house first')
      }
      const listing = await repo.organizerOf(oh.listingREAgentId)
      const organizer = listing
        ? {
            name: `${listing.reAgentFirstName} ${listing.reAgentLastName}`.trim(),
            email: listing.reAgentEmailId,
          }
        : null
      return {
        fileName: `open-house-${oh.id}.ics`,
        body: eventFileOf({ ...oh, startsAt, endsAt }, organizer, d.config.publicUrl),
      }
    },
  }
}
