import {
  addDays,
  type CancelOpenHouseBody,
  isTeamLevel,
  messages,
  needsScheduleOnClaim,
  type OpenHouse,
  type OpenHouseDetails,
  openHouseStatus,
  type PublicOpenHouse,
  type PublishLevel,
  publishLevelsFor,
  rooms,
  type SaveOpenHouseBody,
  type UpdateScheduleBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PlanLimitError,
  ValidationError,
} from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { type EventSink, emitAfterCommit } from '../../realtime/events.ts'
import type { StatsNotifier } from '../../realtime/stats.ts'
import type { AgentRow } from '../agents/repo.ts'
import type { AgentService } from '../agents/service.ts'
import type { InventoryService } from '../inventory/service.ts'
import type { PricingService } from '../pricing/service.ts'
import { toProperty } from '../properties/service.ts'
import type { OpenHouseDetailsRow, OpenHouseRepo, OpenHouseRow, Viewer } from './repo.ts'
import { slotInstant } from './time.ts'

type SaveBody = z.output<typeof SaveOpenHouseBody>
type ScheduleBody = z.output<typeof UpdateScheduleBody>
type CancelBody = z.output<typeof CancelOpenHouseBody>

export function toOpenHouse(row: OpenHouseRow): OpenHouse {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())
  return {
    id: row.id,
    rePropertyId: row.rePropertyId,
    listingREAgentId: row.listingReAgentId,
    hostingREAgentId: row.hostingReAgentId,
    openHouseFor: row.openHouseFor,
    mlsId: row.mlsId,
    listingURL: row.listingUrl,
    scheduledDate: row.scheduledDate,
    scheduledStartTime: row.scheduledStartTime,
    scheduledEndTime: row.scheduledEndTime,
    openHouseTimezone: row.openHouseTimezone,
    openHousePreparationDate: row.openHousePreparationDate,
    balloonsPutOutFlag: row.balloonsPutOutFlag,
    snackServedFlag: row.snackServedFlag,
    mealServedFlag: row.mealServedFlag,
    drinkServedFlag: row.drinkServedFlag,
    openHouseInstructions: row.openHouseInstructions,
    publishLevel: row.publishLevel,
    publishLevelId: row.publishLevelId,
    published: row.publishedAt !== null,
    autoCloneOpenHouseFlag: row.autoCloneOpenHouseFlag,
    emailIdForSharingOHFeedback: row.emailIdForSharingOhFeedback,
    openHouseCanceledFlag: row.openHouseCanceledFlag,
    openHouseCancelReason: row.openHouseCancelReason,
    reInventoryId: row.reInventoryId,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    createdDate: iso(row.createdDate) ?? '',
    updatedDate: iso(row.updatedDate) ?? '',
  }
}

export function toDetails(row: OpenHouseDetailsRow): OpenHouseDetails {
  const oh = toOpenHouse(row)
  return {
    ...oh,
    reProperty: toProperty(row.property as never),
    listingREAgentName: row.listingName,
    hostingREAgentName: row.hostingName,
    status: openHouseStatus(oh),
  }
}

function rethrowDuplicate(err: unknown): never {
  if (isUniqueViolation(err))
    throw new ConflictError('OPEN_HOUSE_ALREADY_SCHEDULED', messages.openHouseAlreadyScheduled)
  throw err
}

export interface OpenHouseDeps {
  db: Db
  stats: StatsNotifier
  outbox: Outbox
  config: { publicUrl: string }
  repo: OpenHouseRepo
  agents: AgentService
  pricing: PricingService
  inventory: InventoryService
  events: EventSink
}

export function createOpenHouseService(d: OpenHouseDeps) {
  const { repo } = d

  async function viewerOf(agent: AgentRow): Promise<Viewer> {
    return {
      id: agent.id,
      firmLicense: agent.reAgentBrokerFirmLicense,
      teamIds: await d.agents.teamIds(agent.id),
    }
  }

  async function detailsOrThrow(id: number, trx?: Db | Trx): Promise<OpenHouseDetails> {
    const row = await repo.details(id, trx)
    if (!row) throw new NotFoundError()
    return toDetails(row)
  }

  /** publishLevelId per SPEC §9: 0 Hosting Myself, -1 Open To All, firm license, or the agent's team of that type. */
  async function publishLevelId(listing: AgentRow, level: PublishLevel): Promise<string> {
    if (level === 'Hosting Myself') return '0'
    if (level === 'Open To All') return '-1'
    if (level === 'Market Center') return listing.reAgentBrokerFirmLicense
    const team = await repo.teamOfType(listing.id, level)
    if (!team) {
      throw new ValidationError([
        { field: 'publishLevel', message: `You have no active ${level} to publish to` },
      ])
    }
    return String(team.id)
  }

  function assertLevelAllowed(agent: AgentRow, level: PublishLevel) {
    if (!publishLevelsFor(agent.reAgentRole).includes(level)) {
      throw new ValidationError([
        { field: 'publishLevel', message: `A ${agent.reAgentRole} cannot publish to ${level}` },
      ])
    }
  }

  /** Team Lead and Admin Team Member choose the listing agent among licensed agents of their firm. */
  async function listingAgentFor(caller: AgentRow, requested: number | undefined): Promise<AgentRow> {
    if (caller.reAgentRole === 'Real Estate Agent' || requested === undefined || requested === caller.id) {
      if (caller.reAgentRole === 'Team Lead' && requested === caller.id) {
        throw new ValidationError([
          { field: 'listingREAgentId', message: 'Choose a listing agent other than yourself' },
        ])
      }
      return caller
    }
    const chosen = await d.agents.findById(requested)
    if (
      !chosen ||
      chosen.reAgentBrokerFirmLicense !== caller.reAgentBrokerFirmLicense ||
      !chosen.reAgentLicenseValidityFlag
    ) {
      throw new ValidationError([
        { field: 'listingREAgentId', message: 'Choose a licensed agent of your firm' },
      ])
    }
    return chosen
  }

  async function assertCanCreate(agentId: number, trx: Trx) {
    const usage = await d.pricing.utilization(agentId, trx)
    if (!usage) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
    if (usage.pricingPlanUtilization.totalCreatedOpenHouses >= usage.pricePlan.numberOfOpenHousesCreate) {
      throw new PlanLimitError('PLAN_LIMIT_OPEN_HOUSES', messages.openHouseLimitReached)
    }
  }

  async function assertCanPublish(agentId: number, trx: Trx) {
    const usage = await d.pricing.utilization(agentId, trx)
    if (!usage) throw new PlanLimitError('NO_ACTIVE_PLAN', 'No Active Plan')
    if (usage.pricingPlanUtilization.totalPublishedOpenHouses >= usage.pricePlan.numberOfOpenHousesPublish) {
      throw new PlanLimitError('PLAN_LIMIT_PUBLISH', messages.publishLimitReached)
    }
  }

  function instants(s: {
    scheduledDate: string | null
    scheduledStartTime: string
    scheduledEndTime: string
    openHouseTimezone: string
  }) {
    return {
      startsAt: slotInstant(s.scheduledDate, s.scheduledStartTime, s.openHouseTimezone),
      endsAt: slotInstant(s.scheduledDate, s.scheduledEndTime, s.openHouseTimezone),
    }
  }

  function offerRoom(oh: { publishLevel: string; publishLevelId: string }): string | null {
    if (oh.publishLevel === 'Open To All') return rooms.marketAll
    if (oh.publishLevel === 'Market Center') return rooms.marketFirm(oh.publishLevelId)
    if (isTeamLevel(oh.publishLevel)) return rooms.team(Number(oh.publishLevelId))
    return null
  }

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

  function ref(oh: OpenHouseRow) {
    return { openHouseId: oh.id, publishLevel: oh.publishLevel, publishLevelId: oh.publishLevelId }
  }

  /** An auto-clone open house gets a job for the moment it ends (SPEC §4, auto-clone). */
  async function scheduleAutoClone(
    trx: Trx,
    row: { id: number; autoCloneOpenHouseFlag: boolean; endsAt: Date | string | null },
  ) {
    if (row.autoCloneOpenHouseFlag && row.endsAt) {
      await d.outbox.add(trx, 'auto-clone', 'clone', { openHouseId: row.id }, { runAt: new Date(row.endsAt) })
    }
  }

  /**
   * The listing agent, or the Team Lead / Admin Team Member of its firm who scheduled for it (SPEC §5:
   * they choose the listing agent), may act as the listing agent.
   */
  async function actsForListing(caller: AgentRow, listingId: number, trx?: Db | Trx): Promise<boolean> {
    if (caller.id === listingId) return true
    if (caller.reAgentRole !== 'Team Lead' && caller.reAgentRole !== 'Admin Team Member') return false
    const listing = await d.agents.findById(listingId, trx)
    return listing?.reAgentBrokerFirmLicense === caller.reAgentBrokerFirmLicense
  }

  async function ownedBy(
    row: OpenHouseRow | undefined,
    caller: AgentRow,
    trx?: Db | Trx,
  ): Promise<OpenHouseRow> {
    if (!row) throw new NotFoundError()
    if (!(await actsForListing(caller, row.listingReAgentId, trx))) {
      throw new ForbiddenError('Only the listing agent may do this')
    }
    return row
  }

  return {
    async create(caller: AgentRow, body: SaveBody): Promise<OpenHouseDetails> {
      const listing = await listingAgentFor(caller, body.listingREAgentId)
      assertLevelAllowed(caller, body.publishLevel)
      // The inventory is the scheduler's (a Team Lead schedules from its own inventory for a firm agent);
      // a team level means the scheduler's team.
      if (body.reInventoryId) await d.inventory.ownedItem(caller.id, body.reInventoryId)
      const levelId = await publishLevelId(caller, body.publishLevel)
      const id = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(listing.id, trx)
        await assertCanCreate(listing.id, trx)
        const {
          listingREAgentId: _l,
          listingURL,
          emailIdForSharingOHFeedback,
          openHouseCanceledFlag: _c,
          ...rest
        } = body
        const created = await repo
          .create(
            {
              ...rest,
              listingReAgentId: listing.id,
              listingUrl: listingURL,
              emailIdForSharingOhFeedback: emailIdForSharingOHFeedback,
              publishLevelId: levelId,
              // 'Hosting Myself' needs no publish: saving makes the listing agent the host.
              hostingReAgentId: body.publishLevel === 'Hosting Myself' ? listing.id : null,
              reInventoryId: body.reInventoryId ?? null,
              ...instants(body),
            },
            trx,
          )
          .catch(rethrowDuplicate)
        await scheduleAutoClone(trx, {
          id: created.id,
          autoCloneOpenHouseFlag: body.autoCloneOpenHouseFlag,
          ...instants(body),
        })
        d.stats.changed(trx, [listing.id])
        return created.id
      })
      return detailsOrThrow(id)
    },

    /** Listing agent only; once hosted by someone else the date, times and publish level stay as they are. */
    async update(caller: AgentRow, id: number, body: SaveBody): Promise<OpenHouseDetails> {
      const row = await ownedBy(await repo.getById(id), caller)
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
        assertLevelAllowed(caller, body.publishLevel)
        level = {
          publishLevel: body.publishLevel,
          publishLevelId: await publishLevelId(caller, body.publishLevel),
        }
      }
      const updated = await inTransaction(d.db, async (trx) => {
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
              emailIdForSharingOhFeedback: body.emailIdForSharingOHFeedback,
              ...schedule,
              ...level,
              hostingReAgentId:
                level.publishLevel === 'Hosting Myself' ? row.listingReAgentId : row.hostingReAgentId,
              ...instants(schedule),
            },
            trx,
          )
          .catch(rethrowDuplicate)
        if (!next) throw new NotFoundError()
        if (
          next.endsAt?.valueOf() !== row.endsAt?.valueOf() ||
          next.autoCloneOpenHouseFlag !== row.autoCloneOpenHouseFlag
        ) {
          await scheduleAutoClone(trx, next)
        }
        emitAfterCommit(d.events, trx, rooms.openHouse(id), 'openHouse.updated', { openHouseId: id }, id)
        return next
      })
      return detailsOrThrow(updated.id)
    },

    async publish(
      caller: AgentRow,
      id: number,
      listingAgentId: number,
      level: PublishLevel,
    ): Promise<OpenHouseDetails> {
      if (!(await actsForListing(caller, listingAgentId))) {
        throw new ForbiddenError('Only the listing agent may publish')
      }
      assertLevelAllowed(caller, level)
      const levelId = await publishLevelId(caller, level)
      await inTransaction(d.db, async (trx) => {
        const row = await ownedBy(await repo.getById(id, trx), caller, trx)
        if (row.listingReAgentId !== listingAgentId)
          throw new ForbiddenError('Only the listing agent may publish')
        if (
          row.openHouseCanceledFlag ||
          (row.hostingReAgentId !== null && row.publishLevel !== 'Hosting Myself')
        ) {
          throw new ConflictError('INVALID_STATE', 'Only an open house without a host can be published')
        }
        const listingId = row.listingReAgentId
        await repo.lockAgent(listingId, trx)
        const offering = level !== 'Hosting Myself'
        if (offering && row.publishedAt === null) await assertCanPublish(listingId, trx)
        const next = await repo.update(
          id,
          {
            publishLevel: level,
            publishLevelId: levelId,
            hostingReAgentId: offering ? null : listingId,
            publishedAt: offering ? (row.publishedAt ?? new Date()) : null,
          },
          trx,
        )
        if (!next) throw new NotFoundError()
        const room = offerRoom(next)
        if (room) emitAfterCommit(d.events, trx, room, 'opportunity.published', ref(next), id)
        d.stats.changed(trx, [listingId])
        // SPEC §4: publishing to a team emails its members (a team without members is still searchable).
        if (offering && isTeamLevel(level) && row.publishedAt === null) {
          const details = await detailsOrThrow(id, trx)
          const link = `${d.config.publicUrl}/openhouses?activeSection=searchOH&openHouseId=${id}`
          const invitees = await repo.teamInvitees(Number(levelId), [listingId, caller.id], trx)
          for (const member of invitees) {
            await queueMail(
              trx,
              d.outbox,
              mailTemplates.teamInvitation(member.reAgentEmailId, {
                firstName: member.reAgentFirstName,
                address: details.reProperty.completePropertyAddress,
                when: details.scheduledDate
                  ? `${details.scheduledDate}, ${details.scheduledStartTime} – ${details.scheduledEndTime}`
                  : 'a date you pick',
                listing: details.listingREAgentName,
                level,
                link,
              }),
            )
          }
        }
      })
      return detailsOrThrow(id)
    },

    /** The race: one conditional UPDATE; exactly one caller gets the row. */
    async claim(caller: AgentRow, id: number, agentId: number): Promise<OpenHouseDetails> {
      if (agentId !== caller.id) throw new ForbiddenError('You can only claim for yourself')
      const viewer = await viewerOf(caller)
      return this.finishClaim(caller, id, await repo.claim(id, viewer), viewer)
    },

    /** Sets a flexible date/time and claims, in one statement (SPEC §4 updateSchedule). */
    async claimWithSchedule(caller: AgentRow, id: number, body: ScheduleBody): Promise<OpenHouseDetails> {
      const viewer = await viewerOf(caller)
      const schedule = { ...body, ...instants(body) }
      const row = await repo.claim(id, viewer, schedule).catch(rethrowDuplicate)
      return this.finishClaim(caller, id, row, viewer)
    },

    async finishClaim(
      caller: AgentRow,
      id: number,
      row: OpenHouseRow | undefined,
      viewer: Viewer,
    ): Promise<OpenHouseDetails> {
      if (!row) {
        const current = await repo.getById(id)
        if (!current) throw new NotFoundError()
        if (current.hostingReAgentId !== null && current.hostingReAgentId !== caller.id) {
          throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
        }
        if (current.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', messages.claimFailed)
        if (!(await repo.isOfferedTo(id, viewer)) || current.listingReAgentId === caller.id) {
          throw new ForbiddenError('This open house is not offered to you')
        }
        if (needsScheduleOnClaim(current)) {
          throw new ConflictError('INVALID_STATE', 'Pick the date and time of this open house to claim it')
        }
        throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
      }
      const details = await detailsOrThrow(id)
      const room = offerRoom(row)
      const claimed = {
        ...ref(row),
        hostingReAgentId: caller.id,
        hostingReAgentName: details.hostingREAgentName ?? '',
      }
      d.events.emit(
        [...(room ? [room] : []), rooms.agent(row.listingReAgentId), rooms.openHouse(id)],
        'opportunity.claimed',
        claimed,
        id,
      )
      await d.stats.changedNow([row.listingReAgentId, caller.id])
      return details
    },

    async withdraw(caller: AgentRow, id: number, agentId: number): Promise<OpenHouseDetails> {
      if (agentId !== caller.id) throw new ForbiddenError('You can only withdraw yourself')
      const row = await repo.withdraw(id, caller.id)
      if (!row) {
        const current = await repo.getById(id)
        if (!current) throw new NotFoundError()
        if (current.hostingReAgentId !== caller.id)
          throw new ForbiddenError('Only the hosting agent may withdraw')
        throw new ConflictError('INVALID_STATE', 'This open house cannot be withdrawn from')
      }
      const room = offerRoom(row)
      d.events.emit(
        [...(room ? [room] : []), rooms.agent(row.listingReAgentId), rooms.openHouse(id)],
        'opportunity.withdrawn',
        ref(row),
        id,
      )
      await d.stats.changedNow([row.listingReAgentId, caller.id])
      return detailsOrThrow(id)
    },

    async cancel(caller: AgentRow, body: CancelBody): Promise<OpenHouseDetails> {
      const current = await ownedBy(await repo.getById(body.openHouseId), caller)
      const row = await repo.cancel(body.openHouseId, current.listingReAgentId, body.openHouseCancelReason)
      if (!row) throw new ConflictError('INVALID_STATE', messages.cancelOpenHouseFailed)
      const room = offerRoom(row)
      const to = [rooms.openHouse(row.id), rooms.agent(row.listingReAgentId)]
      if (row.hostingReAgentId) to.push(rooms.agent(row.hostingReAgentId))
      if (room && row.publishedAt) to.push(room)
      d.events.emit(
        to,
        'openHouse.canceled',
        { openHouseId: row.id, openHouseCancelReason: body.openHouseCancelReason },
        row.id,
      )
      await d.stats.changedNow([row.listingReAgentId, row.hostingReAgentId])
      return detailsOrThrow(row.id)
    },

    /** A copy to edit: same details, no date yet, not offered, not hosted (unless Hosting Myself). */
    async clone(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      const row = await ownedBy(await repo.getById(id), caller)
      if (row.autoCloneOpenHouseFlag) {
        throw new ConflictError('INVALID_STATE', 'Auto-clone is on for this open house; it clones itself')
      }
      const newId = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(row.listingReAgentId, trx)
        await assertCanCreate(row.listingReAgentId, trx)
        const created = await repo.create(
          copyOf(row, {
            scheduledDate: null,
            scheduledStartTime: row.scheduledStartTime,
            scheduledEndTime: row.scheduledEndTime,
            openHouseTimezone: row.openHouseTimezone,
          }),
          trx,
        )
        d.stats.changed(trx, [row.listingReAgentId])
        return created.id
      })
      return detailsOrThrow(newId)
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
      const details = await detailsOrThrow(openHouseId)
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
          await assertCanCreate(listing.id, trx)
          const created = await repo.create({ ...copyOf(row, schedule), autoCloneOfOpenHouseId: row.id }, trx)
          await scheduleAutoClone(trx, {
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

    /** The listing or hosting agent, or an agent it was offered to (who then sees who claimed it). */
    async details(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      const details = await detailsOrThrow(id)
      const involved =
        details.hostingREAgentId === caller.id || (await actsForListing(caller, details.listingREAgentId))
      if (!involved && !(await repo.wasOfferedTo(id, await viewerOf(caller)))) throw new NotFoundError()
      return details
    },

    async publicDetails(id: number): Promise<PublicOpenHouse> {
      const d2 = await detailsOrThrow(id)
      return {
        id: d2.id,
        rePropertyId: d2.rePropertyId,
        openHouseFor: d2.openHouseFor,
        scheduledDate: d2.scheduledDate,
        scheduledStartTime: d2.scheduledStartTime,
        scheduledEndTime: d2.scheduledEndTime,
        openHouseTimezone: d2.openHouseTimezone,
        openHouseCanceledFlag: d2.openHouseCanceledFlag,
        reProperty: d2.reProperty,
        listingREAgentName: d2.listingREAgentName,
        hostingREAgentName: d2.hostingREAgentName,
      }
    },

    async upcoming(agentId: number, limit: number, offset: number) {
      return (await repo.upcoming(agentId, limit, offset)).map(toDetails)
    },
    async past(agentId: number, limit: number, offset: number) {
      return (await repo.past(agentId, limit, offset)).map(toDetails)
    },
    async availableToHost(caller: AgentRow, limit: number, offset: number) {
      return (await repo.availableToHost(await viewerOf(caller), limit, offset)).map(toDetails)
    },

    /** For the host's "Add to calendar". */
    async forCalendar(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      const details = await detailsOrThrow(id)
      if (details.hostingREAgentId !== caller.id && !(await actsForListing(caller, details.listingREAgentId)))
        throw new NotFoundError()
      return details
    },
  }
}

export type OpenHouseService = ReturnType<typeof createOpenHouseService>
