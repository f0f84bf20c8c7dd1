import {
  type Actor,
  addDays,
  type CancelOpenHouseBody,
  FLEXI_TIME,
  isTeamLevel,
  maySchedulerFor,
  messages,
  needsScheduleOnClaim,
  type OpenHouse,
  type OpenHouseDetails,
  openHousePermissions,
  openHouseStatus,
  type PublicOpenHouse,
  type PublishLevel,
  publishLevelsFor,
  rooms,
  type SaveOpenHouseBody,
  TIME_SLOTS,
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
import { type Access, toOpenHouseFacts } from '../../policy/access.ts'
import { type EventSink, emitAfterCommit } from '../../realtime/events.ts'
import type { StatsNotifier } from '../../realtime/stats.ts'
import type { AgentRow } from '../agents/repo.ts'
import type { AgentService } from '../agents/service.ts'
import type { InventoryService } from '../inventory/service.ts'
import type { PricingService } from '../pricing/service.ts'
import { toProperty } from '../properties/service.ts'
import type { OpenHouseDetailsRow, OpenHouseRepo, OpenHouseRow } from './repo.ts'
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
    scheduledByREAgentId: row.scheduledByReAgentId,
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

/** The open house with its supporting data, and what `viewer` may do with it (none: a job or the public). */
export function toDetails(row: OpenHouseDetailsRow, viewer?: Actor): OpenHouseDetails {
  const oh = toOpenHouse(row)
  return {
    ...oh,
    reProperty: toProperty(row.property as never),
    listingREAgentName: row.listingName,
    hostingREAgentName: row.hostingName,
    scheduledByREAgentName: row.schedulerName,
    status: openHouseStatus(oh),
    permissions: viewer ? openHousePermissions(viewer, toOpenHouseFacts(row)) : [],
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
  access: Access
}

export function createOpenHouseService(d: OpenHouseDeps) {
  const { repo } = d

  const actor = (caller: AgentRow) => d.access.actor(caller)

  async function detailsOrThrow(id: number, viewer?: Actor, trx?: Db | Trx): Promise<OpenHouseDetails> {
    const row = await repo.details(id, trx)
    if (!row) throw new NotFoundError()
    return toDetails(row, viewer)
  }

  /**
   * publishLevelId per SPEC §9: 0 Hosting Myself, -1 Open To All, the verified firm's license, or the
   * scheduler's team of that type that the listing agent belongs to.
   */
  async function publishLevelId(scheduler: Actor, listingId: number, level: PublishLevel): Promise<string> {
    if (level === 'Hosting Myself') return '0'
    if (level === 'Open To All') return '-1'
    if (level === 'Market Center') {
      if (!scheduler.firmVerified) {
        throw new ValidationError([{ field: 'publishLevel', message: messages.firmNotVerified }])
      }
      return scheduler.firmLicense
    }
    const team = await repo.teamOfType(scheduler.id, scheduler.teamIds, listingId, level)
    if (!team) {
      throw new ValidationError([
        {
          field: 'publishLevel',
          message: `There is no active ${level} of yours that the listing agent has joined to publish to`,
        },
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

  /**
   * The level an open house is published at, and its id. The scheduler's choice (a team level the
   * listing agent's own role could not pick) stays publishable by the listing agent while it is still
   * a member of that team.
   */
  async function levelFor(caller: AgentRow, who: Actor, row: OpenHouseRow, level: PublishLevel) {
    if (
      level === row.publishLevel &&
      isTeamLevel(level) &&
      who.teamIds.map(String).includes(row.publishLevelId)
    ) {
      return row.publishLevelId
    }
    assertLevelAllowed(caller, level)
    return publishLevelId(who, row.listingReAgentId, level)
  }

  /** SPEC §5: a Team Lead picks another agent; an Admin Team Member may pick; neither beyond its teams. */
  async function listingAgentFor(
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
    const chosen = await d.agents.findById(wanted)
    if (!chosen?.reAgentLicenseValidityFlag) {
      throw new ValidationError([{ field: 'listingREAgentId', message: 'Choose a licensed agent' }])
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

  /** The listing agent's room, and its scheduler's: both keep the open house in their lists. */
  function agentRooms(oh: { listingReAgentId: number; scheduledByReAgentId: number }): string[] {
    const listing = rooms.agent(oh.listingReAgentId)
    return oh.scheduledByReAgentId === oh.listingReAgentId
      ? [listing]
      : [listing, rooms.agent(oh.scheduledByReAgentId)]
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

  /** After the claim statement: the loser learns why, the winner is announced before anything else. */
  async function finishClaim(
    caller: AgentRow,
    id: number,
    row: OpenHouseRow | undefined,
    who: Actor,
  ): Promise<OpenHouseDetails> {
    if (!row) {
      await d.access.openHouse(caller, 'claim', id)
      const current = await repo.getById(id)
      if (!current) throw new NotFoundError()
      if (current.hostingReAgentId !== null && current.hostingReAgentId !== caller.id) {
        throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
      }
      if (current.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', messages.claimFailed)
      if (needsScheduleOnClaim(current)) {
        throw new ConflictError('INVALID_STATE', 'Pick the date and time of this open house to claim it')
      }
      throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
    }
    const details = await detailsOrThrow(id, who)
    const room = offerRoom(row)
    const claimed = {
      ...ref(row),
      hostingReAgentId: caller.id,
      hostingReAgentName: details.hostingREAgentName ?? '',
    }
    d.events.emit(
      [...(room ? [room] : []), ...agentRooms(row), rooms.openHouse(id)],
      'opportunity.claimed',
      claimed,
      id,
    )
    await d.stats.changedNow([row.listingReAgentId, caller.id])
    return details
  }

  return {
    async create(caller: AgentRow, body: SaveBody): Promise<OpenHouseDetails> {
      const who = await actor(caller)
      const listing = await listingAgentFor(caller, who, body.listingREAgentId)
      assertLevelAllowed(caller, body.publishLevel)
      // A team level means the scheduler's team that the listing agent joined.
      const levelId = await publishLevelId(who, listing.id, body.publishLevel)
      const id = await inTransaction(d.db, async (trx) => {
        await repo.lockAgent(listing.id, trx)
        await assertCanCreate(listing.id, trx)
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
        await scheduleAutoClone(trx, {
          id: created.id,
          autoCloneOpenHouseFlag: body.autoCloneOpenHouseFlag,
          ...instants(body),
        })
        d.stats.changed(trx, [listing.id, caller.id])
        return created.id
      })
      return detailsOrThrow(id, who)
    },

    /** Listing agent only; once hosted by someone else the date, times and publish level stay as they are. */
    async update(caller: AgentRow, id: number, body: SaveBody): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'edit', id)
      const who = await actor(caller)
      // Decided on the locked row: a claim that answered before this edit is never undone by it.
      const updated = await inTransaction(d.db, async (trx) => {
        const row = await repo.lockRow(id, trx)
        if (!row) throw new NotFoundError()
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
            publishLevelId: await levelFor(caller, who, row, body.publishLevel),
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
        emitAfterCommit(
          d.events,
          trx,
          [rooms.openHouse(id), ...agentRooms(next)],
          'openHouse.updated',
          { openHouseId: id },
          id,
        )
        return next
      })
      return detailsOrThrow(updated.id, who)
    },

    async publish(
      caller: AgentRow,
      id: number,
      listingAgentId: number,
      level: PublishLevel,
    ): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'publish', id)
      const who = await actor(caller)
      const current = await repo.getById(id)
      if (!current) throw new NotFoundError()
      if (current.listingReAgentId !== listingAgentId)
        throw new ForbiddenError('Only the listing agent may publish')
      const levelId = await levelFor(caller, who, current, level)
      await inTransaction(d.db, async (trx) => {
        // Locked: a claim racing this publish either came first (and is kept) or waits for it.
        const row = await repo.lockRow(id, trx)
        if (!row) throw new NotFoundError()
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
          const details = await detailsOrThrow(id, undefined, trx)
          const link = `${d.config.publicUrl}/openhouses?activeSection=searchOH&openHouseId=${id}`
          const invitees = await repo.teamInvitees(
            Number(levelId),
            [listingId, caller.id, row.scheduledByReAgentId],
            trx,
          )
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
      return detailsOrThrow(id, who)
    },

    /** The race: one conditional UPDATE; exactly one caller gets the row. */
    async claim(caller: AgentRow, id: number, agentId: number): Promise<OpenHouseDetails> {
      if (agentId !== caller.id) throw new ForbiddenError('You can only claim for yourself')
      const who = await actor(caller)
      return finishClaim(caller, id, await repo.claim(id, who), who)
    },

    /**
     * SPEC §4 updateSchedule: fixes what is still flexible (the date, the times) and claims, in one
     * row-locked transaction. A fixed schedule is the listing agent's: 409, and nothing is claimed.
     */
    async claimWithSchedule(caller: AgentRow, id: number, body: ScheduleBody): Promise<OpenHouseDetails> {
      const who = await actor(caller)
      const row = await inTransaction(d.db, async (trx) => {
        const current = await repo.lockRow(id, trx)
        if (!current || !needsScheduleOnClaim(current)) {
          if (current?.hostingReAgentId === null && !current.openHouseCanceledFlag) {
            await d.access.openHouse(caller, 'claim', id, trx)
            throw new ConflictError('SCHEDULE_FIXED', messages.scheduleFixed)
          }
          return undefined
        }
        const merged = {
          scheduledDate: current.scheduledDate ?? body.scheduledDate,
          scheduledStartTime:
            current.scheduledStartTime === FLEXI_TIME ? body.scheduledStartTime : current.scheduledStartTime,
          scheduledEndTime:
            current.scheduledEndTime === FLEXI_TIME ? body.scheduledEndTime : current.scheduledEndTime,
        }
        if (TIME_SLOTS.indexOf(merged.scheduledEndTime) <= TIME_SLOTS.indexOf(merged.scheduledStartTime)) {
          throw new ValidationError([
            { field: 'scheduledEndTime', message: 'End time must be after the start time' },
          ])
        }
        const schedule = {
          ...merged,
          ...instants({ ...merged, openHouseTimezone: current.openHouseTimezone }),
        }
        return repo.claim(id, who, schedule, trx).catch(rethrowDuplicate)
      })
      return finishClaim(caller, id, row, who)
    },

    async withdraw(caller: AgentRow, id: number, agentId: number): Promise<OpenHouseDetails> {
      if (agentId !== caller.id) throw new ForbiddenError('You can only withdraw yourself')
      const row = await repo.withdraw(id, caller.id)
      if (!row) {
        await d.access.openHouse(caller, 'withdraw', id)
        throw new ConflictError('INVALID_STATE', 'This open house cannot be withdrawn from')
      }
      const room = offerRoom(row)
      d.events.emit(
        [...(room ? [room] : []), ...agentRooms(row), rooms.openHouse(id)],
        'opportunity.withdrawn',
        ref(row),
        id,
      )
      await d.stats.changedNow([row.listingReAgentId, caller.id])
      return detailsOrThrow(id, await actor(caller))
    },

    async cancel(caller: AgentRow, body: CancelBody): Promise<OpenHouseDetails> {
      const current = await d.access.openHouse(caller, 'cancel', body.openHouseId)
      const row = await repo.cancel(body.openHouseId, current.listingREAgentId, body.openHouseCancelReason)
      if (!row) throw new ConflictError('INVALID_STATE', messages.cancelOpenHouseFailed)
      const room = offerRoom(row)
      const to = [rooms.openHouse(row.id), ...agentRooms(row)]
      if (row.hostingReAgentId) to.push(rooms.agent(row.hostingReAgentId))
      if (room && row.publishedAt) to.push(room)
      d.events.emit(
        to,
        'openHouse.canceled',
        { openHouseId: row.id, openHouseCancelReason: body.openHouseCancelReason },
        row.id,
      )
      await d.stats.changedNow([row.listingReAgentId, row.hostingReAgentId, row.scheduledByReAgentId])
      return detailsOrThrow(row.id, await actor(caller))
    },

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
        await assertCanCreate(row.listingReAgentId, trx)
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
        d.stats.changed(trx, [row.listingReAgentId])
        return created.id
      })
      return detailsOrThrow(newId, await actor(caller))
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

    /** The listing agent, its scheduler, the host, or an agent it was offered to (who sees who claimed it). */
    async details(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'view', id)
      return detailsOrThrow(id, await actor(caller))
    },

    /** For the guest pages: only an open house on show (published or hosted) exists for the public. */
    async publicDetails(id: number): Promise<PublicOpenHouse> {
      const d2 = await detailsOrThrow(id)
      if (!d2.published && d2.hostingREAgentId === null) throw new NotFoundError()
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

    async upcoming(caller: AgentRow, limit: number, offset: number) {
      const who = await actor(caller)
      return (await repo.upcoming(who, limit, offset)).map((r) => toDetails(r, who))
    },
    async past(caller: AgentRow, limit: number, offset: number) {
      const who = await actor(caller)
      return (await repo.past(who, limit, offset)).map((r) => toDetails(r, who))
    },
    async availableToHost(caller: AgentRow, limit: number, offset: number) {
      const who = await actor(caller)
      return (await repo.availableToHost(who, limit, offset)).map((r) => toDetails(r, who))
    },

    /** For the host's "Add to calendar". */
    async forCalendar(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'viewAttendees', id)
      return detailsOrThrow(id, await actor(caller))
    },
  }
}

export type OpenHouseService = ReturnType<typeof createOpenHouseService>
