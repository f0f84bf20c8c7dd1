import { randomBytes } from 'node:crypto'
import { completeAddress, type WebhookEvent } from '@porchlight/shared'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import type { JsonValue } from '../../db/types.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import type { CustomQuestions } from '../custom-questions/service.ts'
import { toOpenHouse } from '../open-houses/mapping.ts'
import { toProperty } from '../properties/service.ts'
import { toProspect } from '../prospects/service.ts'
import { fubVisitEvent } from './fub.ts'
import type { WebhookRepo } from './repo.ts'

// The interface the emitting services hold lives beside the outbox (no module depends on this one for it).
export type { WebhookEvents } from '../../jobs/webhook-events.ts'

export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`

export interface WebhookEventDeps {
  db: Db
  repo: WebhookRepo
  outbox: Outbox
  config: Pick<Config, 'publicUrl'>
  /** Words the answers to an open house's custom questions. */
  questions: Pick<CustomQuestions, 'answersOfVisit'>
}

type ProspectRow = NonNullable<Awaited<ReturnType<WebhookRepo['prospect']>>>

const consentOf = (p: ProspectRow) => ({
  prospectId: p.id,
  emailConsent: p.emailConsent,
  smsConsent: p.smsConsent,
  consentText: p.consentText,
  consentAt: p.consentAt === null ? null : new Date(p.consentAt).toISOString(),
})

interface Integrations {
  endpoints: Array<{ id: number; events: string[] }>
  fub: boolean
}

export function createWebhookEvents({ db, repo, outbox, questions }: WebhookEventDeps): WebhookEvents {
  // What each agent has switched on, read once per transaction: a guest sign-in asks about the same
  // agents for attendee.added, prospect.created and Follow Up Boss, and pays one read for all three.
  const known = new WeakMap<Trx, Map<number, Integrations>>()

  async function integrations(trx: Trx, agentIds: number[]): Promise<Map<number, Integrations>> {
    let cache = known.get(trx)
    if (!cache) {
      cache = new Map()
      known.set(trx, cache)
    }
    const missing = agentIds.filter((id) => !cache.has(id))
    if (missing.length > 0) {
      for (const id of missing) cache.set(id, { endpoints: [], fub: false })
      for (const row of await repo.integrationsOf(missing, trx)) {
        const of = cache.get(row.reAgentId)
        if (!of) continue
        if (row.id === null) of.fub = true
        else of.endpoints.push({ id: row.id, events: row.events ?? [] })
      }
    }
    return cache
  }

  /** Writes the event for every enabled endpoint of these agents that listens for it. */
  async function enqueue(
    trx: Trx,
    event: WebhookEvent,
    agentIds: Array<number | null | undefined>,
    dataFor: (agentId: number) => Promise<Record<string, unknown>> | Record<string, unknown>,
  ): Promise<void> {
    const ids = [...new Set(agentIds.filter((id): id is number => typeof id === 'number'))]
    if (ids.length === 0) return
    const byAgent = await integrations(trx, ids)
    const endpoints = ids.flatMap((reAgentId) =>
      (byAgent.get(reAgentId)?.endpoints ?? [])
        .filter((e) => e.events.includes(event))
        .map((e) => ({ id: e.id, reAgentId })),
    )
    if (endpoints.length === 0) return
    const timestamp = new Date().toISOString()
    const built = new Map<number, Record<string, unknown>>()
    for (const endpoint of endpoints) {
      let data = built.get(endpoint.reAgentId)
      if (!data) {
        data = await dataFor(endpoint.reAgentId)
        built.set(endpoint.reAgentId, data)
      }
      const delivery = await repo.createDelivery(
        {
          endpointId: endpoint.id,
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
    const property = await repo.property(oh.rePropertyId, trx)
    return { row: oh, openHouse: toOpenHouse(oh), property: property ? toProperty(property) : null }
  }

  /** The prospect as the agent may see it: in full to its owner and a listing agent it consented to. */
  function prospectFor(p: ProspectRow, agentId: number, listingConsentFrom: number | null) {
    return toProspect(p, agentId, p.createdByReAgentId === agentId || listingConsentFrom === agentId)
  }

  const events: WebhookEvents = {
    async guestSignedIn(trx, { openHouseId, prospectId, ownerId, newProspect }) {
      let prospect: ProspectRow | undefined
      const loadProspect = async () => {
        prospect ??= await repo.prospect(prospectId, trx)
        if (!prospect) throw new Error(`prospect ${prospectId} is gone`)
        return prospect
      }
      if (newProspect) {
        await enqueue(trx, 'prospect.created', [ownerId], async () => {
          const p = await loadProspect()
          const [{ openHouse, property }, attendee] = await Promise.all([
            openHouseAndProperty(openHouseId, trx),
            repo.attendee(openHouseId, prospectId, trx),
          ])
          return {
            prospect: toProspect(p, ownerId),
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
      })
      await outbox.add(trx, 'fub', 'visit', { agentId: ownerId, event })
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
      await enqueue(trx, 'attendee.added', agentIds, async (agentId) => {
        context ??= loadVisit()
        const { prospect, attendee, openHouse, property, consented, customAnswers } = await context
        const full = prospect.createdByReAgentId === agentId || consented === agentId
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
          prospect: prospectFor(prospect, agentId, consented),
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
        repo.attendee(feedback.openHouseId, feedback.prospectId, trx),
        openHouseAndProperty(feedback.openHouseId, trx),
      ])
      if (!prospect) return
      const consented = attendee?.listingAgentConsent ? row.listingReAgentId : null
      const {
        id,
        openHouseId,
        prospectId,
        hostingReAgentId,
        feedbackText,
        createdDate,
        updatedDate,
        ...ratings
      } = feedback
      await enqueue(
        trx,
        'feedback.submitted',
        [prospect.createdByReAgentId, row.listingReAgentId, row.hostingReAgentId],
        (agentId) => ({
          feedback: {
            id,
            openHouseId,
            prospectId,
            hostingREAgentId: hostingReAgentId,
            feedbackText,
            ...ratings,
            createdDate: new Date(createdDate).toISOString(),
            updatedDate: new Date(updatedDate).toISOString(),
          },
          prospect: prospectFor(prospect, agentId, consented),
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

    async consentChanged(trx, prospectId) {
      const prospect = await repo.prospect(prospectId, trx)
      if (!prospect) return
      const owner = prospect.createdByReAgentId
      await enqueue(trx, 'consent.changed', [owner], () => ({
        prospect: toProspect(prospect, owner),
        consent: consentOf(prospect),
      }))
    },
  }
  return events
}
