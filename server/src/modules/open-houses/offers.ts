import { performance } from 'node:perf_hooks'
import {
  type Actor,
  FLEXI_TIME,
  isTeamLevel,
  messages,
  needsScheduleOnClaim,
  type OpenHouseDetails,
  type PublishLevel,
  rooms,
  TIME_SLOTS,
  type UpdateScheduleBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts'
import { backgroundFailures } from '../../failures.ts'
import { metrics } from '../../lib/metrics.ts'
import { setNewest } from '../../lib/newest.ts'
import { queueMails } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { toOpenHouseFacts } from '../../policy/access.ts'
import { emitAfterCommit } from '../../realtime/events.ts'
import type { OpenHouseDeps } from './deps.ts'
import { levelFor } from './levels.ts'
import { assertCanPublish } from './plan.ts'
import { detailsOrThrow } from './reads.ts'
import type { ClaimedRow } from './repo.ts'
import { offerRef, offerRoom, viewerRooms } from './rooms.ts'
import { instants, rethrowDuplicate, scheduleEnd } from './schedule.ts'

type ScheduleBody = z.output<typeof UpdateScheduleBody>

/** Open houses whose last hosted claim statement is kept (a row of ~20 columns each). */
const HOSTED_KEPT = 1000

type OfferDeps = Pick<
  OpenHouseDeps,
  'db' | 'repo' | 'access' | 'pricing' | 'outbox' | 'stats' | 'events' | 'config' | 'webhooks' | 'push'
>

const whenOf = (details: OpenHouseDetails) =>
  details.scheduledDate
    ? `${details.scheduledDate}, ${details.scheduledStartTime} – ${details.scheduledEndTime}`
    : 'a date you pick'

/** What a push about this open house needs: the address and the time, nothing private. */
function pushView(
  row: {
    publishLevel: string
    publishLevelId: string | null
    listingReAgentId: number
    scheduledByReAgentId: number
    startsAt?: Date | string | null
  },
  details: OpenHouseDetails,
) {
  return {
    id: details.id,
    publishLevel: row.publishLevel,
    publishLevelId: row.publishLevelId,
    listingReAgentId: row.listingReAgentId,
    scheduledByReAgentId: row.scheduledByReAgentId,
    startsAt: row.startsAt ?? null,
    address: details.reProperty.completePropertyAddress,
    when: whenOf(details),
  }
}

/**
 * After the claim statement: the loser learns why from the row as the statement found it; the winner is
 * announced before anything else, then reads the details it answers with.
 */
async function finishClaim(
  d: OfferDeps,
  caller: AgentRow,
  id: number,
  claim: { won: true; row: ClaimedRow } | { won: false; current: ClaimedRow | undefined },
  who: Actor,
): Promise<OpenHouseDetails> {
  if (!claim.won) {
    const { current } = claim
    d.access.allowedOn(who, 'claim', current && toOpenHouseFacts(current))
    if (!current) throw new NotFoundError()
    metrics.count('claim', { outcome: 'lost' })
    if (current.hostingReAgentId !== null && current.hostingReAgentId !== caller.id) {
      throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
    }
    if (current.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', messages.claimFailed)
    if (needsScheduleOnClaim(current)) {
      throw new ConflictError('INVALID_STATE', 'Pick the date and time of this open house to claim it')
    }
    throw new ConflictError('ALREADY_CLAIMED', messages.claimFailed)
  }
  const { row } = claim
  metrics.count('claim', { outcome: 'won' })
  const claimed = {
    ...offerRef(row),
    hostingReAgentId: caller.id,
    // As the details name the host (first and last name).
    hostingReAgentName: `${caller.reAgentFirstName} ${caller.reAgentLastName}`,
  }
  // Announced on the event loop's next turn: the claims that waited on this statement (claimOrJoin) go
  // on in this one, and are answered before the broadcast writes a frame to every watching socket
  // (200 in a race, 3–10 ms). Still long before the winner's own answer, two round trips later.
  setImmediate(() => {
    try {
      d.events.emit(viewerRooms(row), 'opportunity.claimed', claimed, id)
    } catch (err) {
      backgroundFailures.report('claim-event', err, { openHouseId: id })
    }
  })
  d.stats.changedNow([row.listingReAgentId, caller.id])
  // The claim is one statement without a transaction (the race stays one UPDATE): its webhook
  // deliveries are written right after it, once the winner is announced.
  await d.webhooks.openHouseChangedAfter('openHouse.claimed', id)
  const details = await detailsOrThrow(d.repo, id, who)
  // Offers not yet pushed are dropped; those pushed are replaced on each device by who won. After the
  // answer: the winner of a race never waits for it.
  d.push
    .claimed(pushView(row, details), {
      id: caller.id,
      name: `${caller.reAgentFirstName} ${caller.reAgentLastName}`,
    })
    .catch((err) => backgroundFailures.report('push', err, { openHouseId: id }))
  return details
}

/** Offering an open house to other agents, and their claims on it. */
export function createOpenHouseOffers(d: OfferDeps) {
  const { repo } = d

  // The claim statement in flight for each open house in this process. In a race, claims arriving
  // while one is in flight wait for it rather than sending a statement of their own to queue on the
  // row: if it found the house hosted (by its own claim or an earlier one), a claim that overlapped it
  // has lost to that host, and is answered from the same row. Otherwise (never offered to that agent,
  // canceled, not yet scheduled) each goes on to its own statement, which alone decides who wins.
  // The row is the statement's, shared by every claim that joined it and read only: not copied for each
  // of a race's 199 losers (a spread or rest copy of a row is a property-by-property runtime copy).
  const claimsInFlight = new Map<number, ReturnType<typeof repo.claimOrCurrent>>()
  // The last claim statement of each open house claimed here lately that found it hosted, and when it
  // was asked for. A claim whose request arrived before that moment overlapped the statement as much as
  // one that waited for it in flight: the house was hosted at the statement's commit, a moment between
  // the request's arrival and its answer, so it has lost to that host and is answered from that row. In
  // a race of agents not seen lately, the bulk's claims come out of their session read after the first
  // statement has answered; without this, they sent one more statement and waited for it.
  const hostedWhenAsked = new Map<number, { askedAt: number; row: ClaimedRow }>()
  async function claimOrJoin(
    id: number,
    who: Actor,
    arrivedAt: number | undefined,
  ): Promise<{ won: boolean; row: ClaimedRow } | undefined> {
    for (let ahead = claimsInFlight.get(id); ahead; ahead = claimsInFlight.get(id)) {
      const seen = await ahead.catch(() => undefined)
      if (seen && seen.hostingReAgentId !== null) return { won: false, row: seen }
    }
    const hosted = hostedWhenAsked.get(id)
    if (hosted && arrivedAt !== undefined && arrivedAt <= hosted.askedAt)
      return { won: false, row: hosted.row }
    const askedAt = performance.now()
    const mine = repo.claimOrCurrent(id, who)
    claimsInFlight.set(id, mine)
    try {
      const row = await mine
      if (row && row.hostingReAgentId !== null) setNewest(hostedWhenAsked, id, { askedAt, row }, HOSTED_KEPT)
      return row && { won: row.won, row }
    } finally {
      if (claimsInFlight.get(id) === mine) claimsInFlight.delete(id)
    }
  }

  return {
    async publish(
      caller: AgentRow,
      id: number,
      listingAgentId: number,
      level: PublishLevel,
    ): Promise<OpenHouseDetails> {
      await d.access.openHouse(caller, 'publish', id)
      const who = await d.access.actor(caller)
      const current = await repo.getById(id)
      if (!current) throw new NotFoundError()
      if (current.listingReAgentId !== listingAgentId)
        throw new ForbiddenError('Only the listing agent may publish')
      const levelId = await levelFor(repo, caller, who, current, level)
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
        if (offering && row.publishedAt === null) await assertCanPublish(d.pricing, listingId, trx)
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
        if (room) emitAfterCommit(d.events, trx, room, 'opportunity.published', offerRef(next), id)
        // Its own side, and wherever it was offered before at another level, see the change too.
        emitAfterCommit(d.events, trx, viewerRooms(row, next), 'openHouse.updated', { openHouseId: id }, id)
        d.stats.changed(trx, [listingId])
        if (offering && row.publishedAt === null) {
          await d.webhooks.openHouseChanged(trx, 'openHouse.published', id)
        }
        // 'Hosting Myself' takes back an offer nobody claimed yet.
        if (!offering && row.publishedAt !== null) {
          await d.webhooks.openHouseWithdrawn(trx, id, {
            withdrawnBy: 'listingAgent',
            previousHostId: row.hostingReAgentId,
          })
        }
        if (offering && row.publishedAt === null) {
          const details = await detailsOrThrow(repo, id, undefined, trx)
          await d.push.offered(trx, pushView(next, details), [caller.id])
        }
        // SPEC §4: publishing to a team emails its members (a team without members is still searchable).
        if (offering && isTeamLevel(level) && row.publishedAt === null) {
          const details = await detailsOrThrow(repo, id, undefined, trx)
          const link = `${d.config.publicUrl}/openhouses?activeSection=searchOH&openHouseId=${id}`
          const invitees = await repo.teamInvitees(
            Number(levelId),
            [listingId, caller.id, row.scheduledByReAgentId],
            trx,
          )
          const when = details.scheduledDate
            ? `${details.scheduledDate}, ${details.scheduledStartTime} – ${details.scheduledEndTime}`
            : 'a date you pick'
          await queueMails(
            trx,
            d.outbox,
            invitees.map((member) =>
              mailTemplates.teamInvitation(member.reAgentEmailId, {
                firstName: member.reAgentFirstName,
                address: details.reProperty.completePropertyAddress,
                when,
                listing: details.listingREAgentName,
                level,
                link,
              }),
            ),
          )
        }
      })
      return detailsOrThrow(repo, id, who)
    },

    /**
     * The race: one conditional UPDATE; exactly one caller gets the row. `arrivedAt` (`performance.now()`
     * when the request arrived; unknown for a claim from a push) lets a claim that overlapped a statement
     * that found the house hosted be answered from it.
     */
    async claim(caller: AgentRow, id: number, arrivedAt?: number): Promise<OpenHouseDetails> {
      const who = await d.access.actor(caller)
      // One statement answers the winner and the losers alike (199 of 200 in a race lose).
      const result = await claimOrJoin(id, who, arrivedAt)
      if (!result) return finishClaim(d, caller, id, { won: false, current: undefined }, who)
      const { won, row } = result
      return finishClaim(d, caller, id, won ? { won, row } : { won, current: row }, who)
    },

    /**
     * SPEC §4 updateSchedule: fixes what is still flexible (the date, the times) and claims, in one
     * row-locked transaction. A fixed schedule is the listing agent's: 409, and nothing is claimed.
     */
    async claimWithSchedule(caller: AgentRow, id: number, body: ScheduleBody): Promise<OpenHouseDetails> {
      const who = await d.access.actor(caller)
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
        const claimed = await repo.claimWithSchedule(id, who, schedule, trx).catch(rethrowDuplicate)
        // The schedule is fixed now: it has an end, and the jobs for it.
        if (claimed) {
          await scheduleEnd(d.outbox, trx, claimed)
          await d.webhooks.openHouseRescheduled(trx, id, current)
        }
        return claimed
      })
      return finishClaim(
        d,
        caller,
        id,
        row ? { won: true, row } : { won: false, current: await repo.getById(id) },
        who,
      )
    },

    async withdraw(caller: AgentRow, id: number): Promise<OpenHouseDetails> {
      const row = await repo.withdraw(id, caller.id)
      if (!row) {
        await d.access.openHouse(caller, 'withdraw', id)
        throw new ConflictError('INVALID_STATE', 'This open house cannot be withdrawn from')
      }
      d.events.emit(
        // The one who withdrew keeps it on other screens until they hear it (it left their list).
        [...viewerRooms(row), rooms.agent(caller.id)],
        'opportunity.withdrawn',
        offerRef(row),
        id,
      )
      d.stats.changedNow([row.listingReAgentId, caller.id])
      // One statement of its own, as a claim: its webhook deliveries are written right after it.
      await d.webhooks.openHouseWithdrawn(null, id, { withdrawnBy: 'host', previousHostId: caller.id })
      return detailsOrThrow(repo, id, await d.access.actor(caller))
    },
  }
}
