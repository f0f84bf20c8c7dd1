import { randomBytes } from 'node:crypto'
import {
  completeAddress,
  openHouseStatus,
  WEBHOOK_DATA,
  type WebhookEvent,
  type WebhookSchedule,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Config } from '../../config.ts'
import type { IntegrationRow } from '../../db/agent-integrations.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import type { JsonValue } from '../../db/types.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { ScheduleRow, WebhookEvents } from '../../jobs/webhook-events.ts'
import type { CustomQuestions } from '../custom-questions/service.ts'
import { toOpenHouse } from '../open-houses/mapping.ts'
import { toProperty } from '../properties/service.ts'
import { toProspect } from '../prospects/service.ts'
import { captureTime, fubVisitEvent } from './fub.ts'
import type { FubRepo } from './fub-repo.ts'
import type { WebhookRepo } from './repo.ts'

// The interface the emitting services hold lives beside the outbox (no module depends on this one for it).
export type { WebhookEvents } from '../../jobs/webhook-events.ts'

export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`

export interface WebhookEventDeps {
  db: Db
  repo: WebhookRepo
  fubRepo: FubRepo
  outbox: Outbox
  config: Pick<Config, 'publicUrl'>
  /** Words the answers to an open house's custom questions. */
  questions: Pick<CustomQuestions, 'answersOfVisit'>
}

type ProspectRow = NonNullable<Awaited<ReturnType<WebhookRepo['prospect']>>>
type OpenHouseRow = NonNullable<Awaited<ReturnType<WebhookRepo['openHouse']>>>
type Schedule = z.input<typeof WebhookSchedule>

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/** When an open house takes place, as the rescheduled event tells it. */
const scheduleOf = (row: ScheduleRow): Schedule => ({
  scheduledDate: row.scheduledDate,
  scheduledStartTime: row.scheduledStartTime,
  scheduledEndTime: row.scheduledEndTime,
  openHouseTimezone: row.openHouseTimezone,
  startsAt: iso(row.startsAt),
  endsAt: iso(row.endsAt),
})

const consentOf = (p: ProspectRow) => ({
  prospectId: p.id,
  emailConsent: p.emailConsent,
  smsConsent: p.smsConsent,
  consentText: p.consentText,
  consentAt: p.consentAt === null ? null : new Date(p.consentAt).toISOString(),
})

interface Integrations {
  /** Its own endpoints (teamId null) and those of the teams it is in. */
  endpoints: Array<{ id: number; events: string[]; teamId: number | null }>
  fub: boolean
}

/**
 * Whom an event's data is built for: an agent sees it as in the app; a team's endpoint sees it as the
 * team would (decision 012): the open house in full, a guest's contact masked and its typed answers
 * withheld, since a guest agreed to be contacted by the agent at the door, not by its team.
 */
type Viewer = { agentId: number } | 'team'

const viewerId = (v: Viewer) => (v === 'team' ? null : v.agentId)

export function createWebhookEvents({
  db,
  repo,
  fubRepo,
  outbox,
  questions,
}: WebhookEventDeps): WebhookEvents {
  // What each agent has switched on, read once per transaction: a guest sign-in asks about the same
  // agents for attendee.added, prospect.created and Follow Up Boss, and pays one read for all three.
  const known = new WeakMap<Trx, Map<number, Integrations>>()

  /** `read`: these agents' rows, already read by the caller's statement. */
  async function integrations(
    trx: Trx,
    agentIds: number[],
    read?: IntegrationRow[],
  ): Promise<Map<number, Integrations>> {
    let cache = known.get(trx)
    if (!cache) {
      cache = new Map()
      known.set(trx, cache)
    }
    const missing = agentIds.filter((id) => !cache.has(id))
    if (missing.length > 0) {
      for (const id of missing) cache.set(id, { endpoints: [], fub: false })
      const fresh = new Map(missing.map((id) => [id, cache.get(id)]))
      for (const row of read ?? (await repo.integrationsOf(missing, trx))) {
        const of = fresh.get(row.reAgentId)
        if (!of) continue
        if (row.id === null) of.fub = true
        else of.endpoints.push({ id: row.id, events: row.events ?? [], teamId: row.teamId })
      }
    }
    return cache
  }

  /**
   * Writes the event for every enabled endpoint of these agents, and of their teams, that listens for
   * it: once per endpoint, however many of the agents share its team (the first agent named decides).
   */
  async function enqueue(
    trx: Trx,
    event: WebhookEvent,
    agentIds: Array<number | null | undefined>,
    dataFor: (viewer: Viewer) => Promise<Record<string, unknown>> | Record<string, unknown>,
  ): Promise<void> {
    const ids = [...new Set(agentIds.filter((id): id is number => typeof id === 'number'))]
    if (ids.length === 0) return
    const byAgent = await integrations(trx, ids)
    const endpoints = new Map<number, { agentId: number; teamId: number | null }>()
    for (const agentId of ids) {
      for (const e of byAgent.get(agentId)?.endpoints ?? []) {
        if (e.events.includes(event) && !endpoints.has(e.id))
          endpoints.set(e.id, { agentId, teamId: e.teamId })
      }
    }
    if (endpoints.size === 0) return
    const timestamp = new Date().toISOString()
    const built = new Map<string, Record<string, unknown>>()
    const teamIds = [
      ...new Set([...endpoints.values()].flatMap((e) => (e.teamId === null ? [] : [e.teamId]))),
    ]
    const [teamNames, memberNames] =
      teamIds.length === 0
        ? [new Map<number, string>(), new Map<number, string>()]
        : await Promise.all([
            repo.teamNames(teamIds, trx),
            repo.agentNames(
              [...endpoints.values()].filter((e) => e.teamId !== null).map((e) => e.agentId),
              trx,
            ),
          ])
    for (const [endpointId, { agentId, teamId }] of endpoints) {
      // The team's view is the same for every member: built once, as each agent's own is.
      const key = teamId === null ? `agent:${agentId}` : 'team'
      let data = built.get(key)
      if (!data) {
        data = await dataFor(teamId === null ? { agentId } : 'team')
        built.set(key, data)
      }
      // A team's endpoint is told whose event it is: the team and the member, with their names.
      if (teamId !== null) {
        data = {
          ...data,
          team: {
            id: teamId,
            reTeamName: teamNames.get(teamId) ?? '',
            agentId,
            agentName: memberNames.get(agentId) ?? '',
          },
        }
      }
      // Shaped by the published schema: a field it does not name is never sent, one it names is never
      // missing (a payload that does not fit is a bug, found by the tests before it ships).
      data = WEBHOOK_DATA[event].parse(data)
      const delivery = await repo.createDelivery(
        {
          endpointId,
          messageId: newMessageId(),
          eventType: event,
          payload: JSON.stringify({ type: event, timestamp, data }),
        },
        trx,
      )
      await outbox.add(trx, 'webhooks', 'deliver', { deliveryId: delivery.id })
    }
  }

  async function openHouseAndProperty(openHouseId: number, trx: Trx) {
    const oh = await repo.openHouse(openHouseId, trx)
    if (!oh) throw new Error(`open house ${openHouseId} is gone`)
    const propertyRow = await repo.property(oh.rePropertyId, trx)
    if (!propertyRow) throw new Error(`property ${oh.rePropertyId} is gone`)
    const property = toProperty(propertyRow)
    return { row: oh, openHouse: webhookOpenHouse(oh, property), property }
  }

  /** As getOpenHouseDetails answers it, with its agents' names (less what a caller may do). */
  function webhookOpenHouse(row: OpenHouseRow, property: ReturnType<typeof toProperty>) {
    const openHouse = toOpenHouse(row)
    return {
      ...openHouse,
      reProperty: property,
      listingREAgentName: row.listingName,
      listingREAgentBrokerage: row.listingBrokerage,
      hostingREAgentName: row.hostingName,
      scheduledByREAgentName: row.schedulerName,
      status: openHouseStatus(openHouse),
    }
  }

  /**
   * The prospect as the viewer may see it: in full to its owner and a listing agent it consented to;
   * masked to a team (decision 012).
   */
  function prospectFor(p: ProspectRow, viewer: Viewer, listingConsentFrom: number | null) {
    const agentId = viewerId(viewer)
    const prospect =
      agentId === null
        ? toProspect(p, 0, false)
        : toProspect(p, agentId, p.createdByReAgentId === agentId || listingConsentFrom === agentId)
    return { ...prospect, createdByREAgentName: p.ownerName }
  }

  const events: WebhookEvents = {
    async prepare(trx, agentIds, read) {
      await integrations(
        trx,
        agentIds.filter((id): id is number => id !== null),
        read,
      )
    },

    async guestSignedIn(trx, { openHouseId, prospectId, ownerId, newProspect, capturedAt }) {
      let prospect: ProspectRow | undefined
      const loadProspect = async () => {
        prospect ??= await repo.prospect(prospectId, trx)
        if (!prospect) throw new Error(`prospect ${prospectId} is gone`)
        return prospect
      }
      if (newProspect) {
        await enqueue(trx, 'prospect.created', [ownerId], async (viewer) => {
          const p = await loadProspect()
          const [{ openHouse, property }, attendee] = await Promise.all([
            openHouseAndProperty(openHouseId, trx),
            repo.attendee(openHouseId, prospectId, trx),
          ])
          return {
            prospect: prospectFor(p, viewer, null),
            consent: consentOf(p),
            openHouse,
            property,
            customAnswers: await questions.answersOfVisit(openHouseId, attendee?.customAnswers, trx),
          }
        })
      }
      if (!(await integrations(trx, [ownerId])).get(ownerId)?.fub) return
      const [p, { row, property }, attendee] = await Promise.all([
        loadProspect(),
        openHouseAndProperty(openHouseId, trx),
        repo.attendee(openHouseId, prospectId, trx),
      ])
      const event = fubVisitEvent({
        prospect: p,
        answers: (attendee?.guestDetails ?? null) as Record<string, JsonValue> | null,
        openHouse: row,
        address: property ? completeAddress(property) : '',
        property,
        occurredAt: captureTime(capturedAt ?? null, new Date()),
      })
      // A row in PostgreSQL is the lead until Follow Up Boss has it (decision 041); the job attempts it.
      const delivery = await fubRepo.create(ownerId, event, trx)
      await outbox.add(trx, 'fub', 'visit', { deliveryId: delivery.id })
    },

    async attendeeAdded(trx, { openHouseId, prospectId, agentIds }) {
      let context: ReturnType<typeof loadVisit> | undefined
      const loadVisit = async () => {
        const [prospect, attendee, { row, openHouse, property }] = await Promise.all([
          repo.prospect(prospectId, trx),
          repo.attendee(openHouseId, prospectId, trx),
          openHouseAndProperty(openHouseId, trx),
        ])
        if (!prospect || !attendee) throw new Error(`attendee ${openHouseId}/${prospectId} is gone`)
        const consented = attendee.listingAgentConsent ? row.listingReAgentId : null
        const customAnswers = await questions.answersOfVisit(openHouseId, attendee.customAnswers, trx)
        return { prospect, attendee, openHouse, property, consented, customAnswers }
      }
      await enqueue(trx, 'attendee.added', agentIds, async (viewer) => {
        context ??= loadVisit()
        const { prospect, attendee, openHouse, property, consented, customAnswers } = await context
        const agentId = viewerId(viewer)
        const full = agentId !== null && (prospect.createdByReAgentId === agentId || consented === agentId)
        return {
          attendee: {
            id: attendee.id,
            openHouseId,
            prospectId,
            signedInAt: new Date(attendee.createdDate).toISOString(),
            captureDevice: attendee.captureDevice,
            capturedOffline: attendee.capturedOffline,
            listingAgentConsent: attendee.listingAgentConsent,
            // What the guest typed and answered at this visit: only for whom its details are.
            answers: full ? attendee.guestDetails : null,
            // The open house's own questions and this visitor's answers, as on the attendee board.
            customAnswers,
          },
          prospect: prospectFor(prospect, viewer, consented),
          consent: consentOf(prospect),
          openHouse,
          property,
        }
      })
    },

    async feedbackSubmitted(trx, feedbackId) {
      const feedback = await repo.feedback(feedbackId, trx)
      if (!feedback) return
      const [prospect, attendee, { row, openHouse, property }] = await Promise.all([
        repo.prospect(feedback.prospectId, trx),
        repo.attendee(feedback.openHouseId, feedback.prospectId, trx, feedback.attendeeId),
        openHouseAndProperty(feedback.openHouseId, trx),
      ])
      if (!prospect) return
      const hostName = (await repo.agentNames([feedback.hostingReAgentId], trx)).get(
        feedback.hostingReAgentId ?? 0,
      )
      const consented = attendee?.listingAgentConsent ? row.listingReAgentId : null
      const {
        id,
        openHouseId,
        prospectId,
        hostingReAgentId,
        feedbackText,
        attendeeId: _visit,
        createdDate,
        updatedDate,
        ...ratings
      } = feedback
      await enqueue(
        trx,
        'feedback.submitted',
        [prospect.createdByReAgentId, row.listingReAgentId, row.hostingReAgentId],
        (viewer) => ({
          feedback: {
            id,
            openHouseId,
            prospectId,
            hostingREAgentId: hostingReAgentId,
            hostingREAgentName: hostName ?? null,
            feedbackText,
            ...ratings,
            createdDate: new Date(createdDate).toISOString(),
            updatedDate: new Date(updatedDate).toISOString(),
          },
          prospect: prospectFor(prospect, viewer, consented),
          openHouse,
          property,
        }),
      )
    },

    async openHouseChanged(trx, event, openHouseId) {
      const { row, openHouse, property } = await openHouseAndProperty(openHouseId, trx)
      await enqueue(trx, event, [row.listingReAgentId, row.hostingReAgentId], () => ({ openHouse, property }))
    },

    async openHouseChangedAfter(event, openHouseId) {
      if (!(await repo.openHouseHasListeners(openHouseId, event))) return
      await inTransaction(db, (trx) => events.openHouseChanged(trx, event, openHouseId))
    },

    async openHouseRescheduled(trx, openHouseId, previous) {
      const { row, openHouse, property } = await openHouseAndProperty(openHouseId, trx)
      const [before, current] = [scheduleOf(previous), scheduleOf(row)]
      if (JSON.stringify(current) === JSON.stringify(before)) return
      await enqueue(trx, 'openHouse.rescheduled', [row.listingReAgentId, row.hostingReAgentId], () => ({
        openHouse,
        property,
        previous: before,
        current,
      }))
    },

    async openHouseWithdrawn(trx, openHouseId, { withdrawnBy, previousHostId }) {
      const write = async (t: Trx) => {
        const { row, openHouse, property } = await openHouseAndProperty(openHouseId, t)
        const names = await repo.agentNames([previousHostId], t)
        const previousHost =
          previousHostId === null
            ? null
            : { reAgentId: previousHostId, reAgentName: names.get(previousHostId) ?? '' }
        await enqueue(t, 'openHouse.withdrawn', [row.listingReAgentId, previousHostId], () => ({
          openHouse,
          property,
          withdrawnBy,
          previousHost,
        }))
      }
      // A host's withdrawal is one statement of its own: written right after it, as a claim is.
      if (trx) await write(trx)
      else await inTransaction(db, write)
    },

    async consentChanged(trx, prospectId) {
      const prospect = await repo.prospect(prospectId, trx)
      if (!prospect) return
      const owner = prospect.createdByReAgentId
      await enqueue(trx, 'consent.changed', [owner], (viewer) => ({
        prospect: prospectFor(prospect, viewer, null),
        consent: consentOf(prospect),
      }))
    },
  }
  return events
}
