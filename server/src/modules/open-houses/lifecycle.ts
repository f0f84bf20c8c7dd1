import {
  type Actor,
  type CancelOpenHouseBody,
  maySchedulerFor,
  messages,
  OPEN_HOUSE_CHANGED,
  type OpenHouseDetails,
  type SaveOpenHouseBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts'
import { emitAfterCommit } from '../../realtime/events.ts'
import type { AgentService } from '../agents/service.ts'
import type { OpenHouseDeps } from './deps.ts'
import { assertLevelAllowed, hostAfterLevel, levelFor, publishLevelId } from './levels.ts'
import { assertCanCreate } from './plan.ts'
import { detailsOrThrow } from './reads.ts'
import { viewerRooms } from './rooms.ts'
import { instants, rethrowDuplicate, scheduleEnd } from './schedule.ts'

/** An entity tag is quoted ("…"); a bare value is taken as it is. */
const unquoted = (tag: string) => tag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1')

type SaveBody = z.output<typeof SaveOpenHouseBody>
type CancelBody = z.output<typeof CancelOpenHouseBody>

/** SPEC §5: a Team Lead picks another agent; an Admin Team Member may pick; neither beyond its teams. */
async function listingAgentFor(
  agents: AgentService,
  caller: AgentRow,
  who: Actor,
  requested: number | undefined,
): Promise<AgentRow> {
  const wanted = requested ?? caller.id
  // SPEC §5: a Team Lead who picks a listing agent picks someone other than itself.
  if (requested === caller.id && caller.reAgentRole === 'Team Lead') {
    throw new ValidationError([
      { field: 'listingREAgentId', message: 'Choose the teammate you schedule this open house for' },
    ])
  }
  if (!maySchedulerFor(who, wanted)) {
    throw new ValidationError([
      { field: 'listingREAgentId', message: 'Choose an agent who accepted to join one of your teams' },
    ])
  }
  if (wanted === caller.id) return caller
  const chosen = await agents.findById(wanted)
  if (!chosen?.reAgentLicenseValidityFlag) {
    throw new ValidationError([{ field: 'listingREAgentId', message: 'Choose a licensed agent' }])
  }
  return chosen
}

/** Saving, editing and canceling an open house. */
export function createOpenHouseLifecycle(
  d: Pick<
    OpenHouseDeps,
    | 'db'
    | 'repo'
    | 'access'
    | 'agents'
    | 'pricing'
    | 'inventory'
    | 'outbox'
    | 'stats'
    | 'events'
    | 'webhooks'
    | 'questions'
  >,
) {
  const { repo } = d

  return {
    async create(caller: AgentRow, body: SaveBody): Promise<OpenHouseDetails> {
      const who = await d.access.actor(caller)
      const listing = await listingAgentFor(d.agents, caller, who, body.listingREAgentId)
      assertLevelAllowed(caller, body.publishLevel)
      // A team level means the scheduler's team that the listing agent joined.
      const levelId = await publishLevelId(repo, who, listing.id, body.publishLevel)
      const id = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(listing.id, trx)
        await assertCanCreate(d.pricing, listing.id, trx)
        // The house is the listing agent's: in its inventory, or just typed in by the scheduler.
        const inventoryId = await d.inventory.itemForSchedule(
          caller.id,
          listing.id,
          body.rePropertyId,
          body.reInventoryId ?? null,
          trx,
        )
        const {
          listingREAgentId: _l,
          listingURL,
          emailIdForSharingOHFeedback,
          openHouseCanceledFlag: _c,
          customQuestions,
          ...rest
        } = body
        const created = await repo
          .create(
            {
              ...rest,
              listingReAgentId: listing.id,
              scheduledByReAgentId: caller.id,
              listingUrl: listingURL,
              emailIdForSharingOhFeedback: emailIdForSharingOHFeedback,
              publishLevelId: levelId,
              // 'Hosting Myself' needs no publish: saving makes the listing agent the host.
              hostingReAgentId: body.publishLevel === 'Hosting Myself' ? listing.id : null,
              reInventoryId: inventoryId,
              ...instants(body),
            },
            trx,
          )
          .catch(rethrowDuplicate)
        await d.questions.save(trx, created.id, customQuestions)
        await scheduleEnd(d.outbox, trx, {
          id: created.id,
          autoCloneOpenHouseFlag: body.autoCloneOpenHouseFlag,
          ...instants(body),
        })
        d.stats.changed(trx, [listing.id, caller.id])
        return created.id
      })
      return { ...(await detailsOrThrow(repo, id, who)), customQuestions: await d.questions.list(id) }
    },

    /** Listing agent only; once hosted by someone else the date, times and publish level stay as they are. */
    /** `version`: the `updatedDate` the editor loaded (If-Match); a change since then answers 409 STALE. */
    async update(caller: AgentRow, id: number, body: SaveBody, version?: string): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'edit', id)
      const who = await d.access.actor(caller)
      // Decided on the locked row: a claim that answered before this edit is never undone by it.
      const updated = await inTransaction(d.db, async (trx) => {
        const row = await repo.lockRow(id, trx)
        if (!row) throw new NotFoundError()
        if (version !== undefined && unquoted(version) !== new Date(row.updatedDate).toISOString())
          throw new ConflictError('STALE', OPEN_HOUSE_CHANGED)
        if (row.openHouseCanceledFlag)
          throw new ConflictError('INVALID_STATE', 'A canceled open house cannot be edited')
        const locked = row.hostingReAgentId !== null && row.publishLevel !== 'Hosting Myself'
        const schedule = locked
          ? {
              scheduledDate: row.scheduledDate,
              scheduledStartTime: row.scheduledStartTime,
              scheduledEndTime: row.scheduledEndTime,
              openHouseTimezone: row.openHouseTimezone,
            }
          : {
              scheduledDate: body.scheduledDate,
              scheduledStartTime: body.scheduledStartTime,
              scheduledEndTime: body.scheduledEndTime,
              openHouseTimezone: body.openHouseTimezone,
            }
        let level = { publishLevel: row.publishLevel, publishLevelId: row.publishLevelId }
        if (!locked && body.publishLevel !== row.publishLevel) {
          level = {
            publishLevel: body.publishLevel,
            publishLevelId: await levelFor(repo, caller, who, row, body.publishLevel),
          }
        }
        const next = await repo
          .update(
            id,
            {
              openHouseFor: body.openHouseFor,
              mlsId: body.mlsId,
              listingUrl: body.listingURL,
              openHousePreparationDate: body.openHousePreparationDate,
              balloonsPutOutFlag: body.balloonsPutOutFlag,
              snackServedFlag: body.snackServedFlag,
              mealServedFlag: body.mealServedFlag,
              drinkServedFlag: body.drinkServedFlag,
              openHouseInstructions: body.openHouseInstructions,
              autoCloneOpenHouseFlag: body.autoCloneOpenHouseFlag,
              followUpMailFlag: body.followUpMailFlag,
              emailIdForSharingOhFeedback: body.emailIdForSharingOHFeedback,
              ...schedule,
              ...level,
              ...hostAfterLevel(row, level.publishLevel),
              ...instants(schedule),
            },
            trx,
          )
          .catch(rethrowDuplicate)
        if (!next) throw new NotFoundError()
        await d.webhooks.openHouseRescheduled(trx, id, row)
        if (row.publishedAt !== null && next.publishedAt === null) {
          await d.webhooks.openHouseWithdrawn(trx, id, {
            withdrawnBy: 'listingAgent',
            previousHostId: row.hostingReAgentId,
          })
        }
        await d.questions.save(trx, id, body.customQuestions)
        const moved = next.endsAt?.valueOf() !== row.endsAt?.valueOf()
        await scheduleEnd(d.outbox, trx, next, {
          autoClone: moved || next.autoCloneOpenHouseFlag !== row.autoCloneOpenHouseFlag,
          receipt: moved,
        })
        emitAfterCommit(d.events, trx, viewerRooms(row, next), 'openHouse.updated', { openHouseId: id }, id)
        return next
      })
      return {
        ...(await detailsOrThrow(repo, updated.id, who)),
        customQuestions: await d.questions.list(updated.id),
      }
    },

    async cancel(caller: AgentRow, body: CancelBody): Promise<OpenHouseDetails> {
      const current = await d.access.openHouse(caller, 'cancel', body.openHouseId)
      const row = await repo.cancel(body.openHouseId, current.listingREAgentId, body.openHouseCancelReason)
      if (!row) throw new ConflictError('INVALID_STATE', messages.cancelOpenHouseFailed)
      d.events.emit(
        viewerRooms(row),
        'openHouse.canceled',
        { openHouseId: row.id, openHouseCancelReason: body.openHouseCancelReason },
        row.id,
      )
      d.stats.changedNow([row.listingReAgentId, row.hostingReAgentId, row.scheduledByReAgentId])
      // The cancel is one statement of its own: its webhook deliveries are written right after it.
      await d.webhooks.openHouseChangedAfter('openHouse.canceled', row.id)
      return detailsOrThrow(repo, row.id, await d.access.actor(caller))
    },
  }
}
