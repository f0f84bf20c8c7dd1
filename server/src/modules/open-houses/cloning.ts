import { addDays, messages, type OpenHouseDetails, todayIn } from '@porchlight/shared'
import { isUniqueViolation } from '../../db/errors.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ConflictError, NotFoundError, PlanLimitError } from '../../errors.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import type { OpenHouseDeps } from './deps.ts'
import { assertCanCreate } from './plan.ts'
import { detailsOrThrow } from './reads.ts'
import type { OpenHouseRow } from './repo.ts'
import { instants, rethrowDuplicate, scheduleEnd } from './schedule.ts'

/** A new open house like `row` on another schedule: not offered, not canceled, hosted only if Hosting Myself. */
function copyOf(
  row: OpenHouseRow,
  schedule: Pick<
    OpenHouseRow,
    'scheduledDate' | 'scheduledStartTime' | 'scheduledEndTime' | 'openHouseTimezone'
  >,
) {
  const { id, createdDate: _c, updatedDate: _u, publishedAt: _p, startsAt: _s, endsAt: _e, ...copy } = row
  return {
    ...copy,
    ...schedule,
    ...instants(schedule),
    openHousePreparationDate: null,
    openHouseCanceledFlag: false,
    openHouseCancelReason: null,
    hostingReAgentId: row.publishLevel === 'Hosting Myself' ? row.listingReAgentId : null,
    clonedFromOpenHouseId: id,
    autoCloneOfOpenHouseId: null,
  }
}

/** Copies of an open house: one an agent asks for, and the weekly auto-clone. */
export function createOpenHouseCloning(
  d: Pick<
    OpenHouseDeps,
    'db' | 'repo' | 'access' | 'agents' | 'pricing' | 'outbox' | 'stats' | 'config' | 'questions'
  >,
) {
  const { repo } = d

  return {
    /** A copy to edit: same details, no date yet, not offered, not hosted (unless Hosting Myself). */
    async clone(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'clone', id)
      const row = await repo.getById(id)
      if (!row) throw new NotFoundError()
      if (row.autoCloneOpenHouseFlag) {
        throw new ConflictError('INVALID_STATE', 'Auto-clone is on for this open house; it clones itself')
      }
      const newId = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(row.listingReAgentId, trx)
        await assertCanCreate(d.pricing, row.listingReAgentId, trx)
        const created = await repo.create(
          {
            ...copyOf(row, {
              scheduledDate: null,
              scheduledStartTime: row.scheduledStartTime,
              scheduledEndTime: row.scheduledEndTime,
              openHouseTimezone: row.openHouseTimezone,
            }),
            scheduledByReAgentId: caller.id,
          },
          trx,
        )
        await d.questions.copy(trx, row.id, created.id)
        d.stats.changed(trx, [row.listingReAgentId])
        return created.id
      })
      return {
        ...(await detailsOrThrow(repo, newId, await d.access.actor(caller))),
        customQuestions: await d.questions.list(newId),
      }
    },

    /**
     * "Add another day" (issue 32): the same open house, same times, on the property's next free day
     * after it (and no earlier than tomorrow in its zone), not offered yet. The listing agent's lock
     * makes two presses take turns; the property-and-date index refuses anything that still collides.
     */
    async anotherDay(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'clone', id)
      const row = await repo.getById(id)
      if (!row) throw new NotFoundError()
      if (row.openHouseCanceledFlag) {
        throw new ConflictError('INVALID_STATE', 'This open house was canceled; schedule a new one instead')
      }
      const newId = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(row.listingReAgentId, trx)
        await assertCanCreate(d.pricing, row.listingReAgentId, trx)
        const tomorrow = addDays(todayIn(row.openHouseTimezone), 1)
        const after = row.scheduledDate ? addDays(row.scheduledDate, 1) : tomorrow
        const taken = new Set(await repo.bookedDates(row.rePropertyId, trx))
        // ISO dates sort as text: the later of the two.
        let date = [after, tomorrow].sort()[1] as string
        while (taken.has(date)) date = addDays(date, 1)
        const schedule = {
          scheduledDate: date,
          scheduledStartTime: row.scheduledStartTime,
          scheduledEndTime: row.scheduledEndTime,
          openHouseTimezone: row.openHouseTimezone,
        }
        const created = await repo
          .create(
            { ...copyOf(row, schedule), clonedFromOpenHouseId: null, scheduledByReAgentId: caller.id },
            trx,
          )
          .catch(rethrowDuplicate)
        await d.questions.copy(trx, row.id, created.id)
        await scheduleEnd(d.outbox, trx, {
          id: created.id,
          autoCloneOpenHouseFlag: row.autoCloneOpenHouseFlag,
          ...instants(schedule),
        })
        d.stats.changed(trx, [row.listingReAgentId, caller.id])
        return created.id
      })
      return {
        ...(await detailsOrThrow(repo, newId, await d.access.actor(caller))),
        customQuestions: await d.questions.list(newId),
      }
    },

    /**
     * Runs when an auto-clone open house ends: the same open house one week later, once (a unique
     * column makes a second run a no-op), within the plan; the listing agent is told either way.
     */
    async autoClone(openHouseId: number): Promise<'cloned' | 'skipped' | 'refused'> {
      const row = await repo.getById(openHouseId)
      const ended = row?.endsAt && new Date(row.endsAt).getTime() <= Date.now()
      if (!row || !ended || row.openHouseCanceledFlag || !row.autoCloneOpenHouseFlag || !row.scheduledDate)
        return 'skipped'
      const listing = await d.agents.findById(row.listingReAgentId)
      if (!listing) return 'skipped'
      const details = await detailsOrThrow(repo, openHouseId)
      const address = details.reProperty.completePropertyAddress
      const nextDate = addDays(row.scheduledDate, 7)
      const schedule = {
        scheduledDate: nextDate,
        scheduledStartTime: row.scheduledStartTime,
        scheduledEndTime: row.scheduledEndTime,
        openHouseTimezone: row.openHouseTimezone,
      }
      const refuse = async (reason: string) => {
        await inTransaction(d.db, async (trx) => {
          if (await repo.autoCloneExists(openHouseId, trx)) return
          await queueMail(
            trx,
            d.outbox,
            mailTemplates.autoCloneFailed(listing.reAgentEmailId, address, reason),
          )
        })
        return 'refused' as const
      }
      try {
        return await inTransaction(d.db, async (trx) => {
          await repo.lockAgent(listing.id, trx)
          if (await repo.autoCloneExists(openHouseId, trx)) return 'skipped' as const
          await assertCanCreate(d.pricing, listing.id, trx)
          const created = await repo.create({ ...copyOf(row, schedule), autoCloneOfOpenHouseId: row.id }, trx)
          await d.questions.copy(trx, row.id, created.id)
          await scheduleEnd(d.outbox, trx, {
            id: created.id,
            autoCloneOpenHouseFlag: true,
            ...instants(schedule),
          })
          await queueMail(
            trx,
            d.outbox,
            mailTemplates.autoCloned(
              listing.reAgentEmailId,
              address,
              nextDate,
              `${d.config.publicUrl}/openhouses/schedule/${created.id}/edit?rePropertyId=${row.rePropertyId}`,
            ),
          )
          d.stats.changed(trx, [listing.id])
          return 'cloned' as const
        })
      } catch (err) {
        if (err instanceof PlanLimitError) return refuse(err.message)
        if (isUniqueViolation(err)) {
          if (await repo.autoCloneExists(openHouseId)) return 'skipped'
          return refuse(messages.openHouseAlreadyScheduled)
        }
        throw err
      }
    },
  }
}
