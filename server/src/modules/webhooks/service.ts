import type {
  CreatedWebhookEndpoint,
  FubConnector,
  SaveFubConnectorBody,
  SaveWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
} from '@porchlight/shared'
import { mayAddTeamWebhookEndpoint, WEBHOOK_TEST_EVENT } from '@porchlight/shared'
import type { z } from 'zod'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { Access } from '../../policy/access.ts'
import { newMessageId } from './events.ts'
import { callFub } from './fub-api.ts'
import type { FubRepo } from './fub-repo.ts'
import { newWebhookSecret } from './post.ts'
import type { DeliveryRow, EndpointRow, WebhookRepo } from './repo.ts'
import { checkTarget, PrivateTargetError } from './targets.ts'

type SaveBody = z.output<typeof SaveWebhookEndpointBody>
type FubBody = z.output<typeof SaveFubConnectorBody>

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

export function toEndpoint(row: EndpointRow & { teamName: string | null }): WebhookEndpoint {
  return {
    id: row.id,
    reAgentId: row.reAgentId,
    teamId: row.teamId,
    teamName: row.teamName,
    url: row.url,
    description: row.description,
    events: row.events,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    createdDate: iso(row.createdDate) ?? '',
  }
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    responseExcerpt: row.responseExcerpt,
    lastError: row.lastError,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastAttemptAt: iso(row.lastAttemptAt),
    createdDate: iso(row.createdDate) ?? '',
  }
}

export interface WebhookServiceDeps {
  db: Db
  repo: WebhookRepo
  fubRepo: FubRepo
  outbox: Outbox
  access: Access
  config: Pick<Config, 'webhooks' | 'fub'>
}

/** An agent's webhook endpoints, their delivery logs, and its Follow Up Boss connector. */
export function createWebhookService(d: WebhookServiceDeps) {
  const { repo } = d

  async function fubConnector(agentId: number): Promise<FubConnector> {
    const [row, pending] = await Promise.all([repo.fub(agentId), d.fubRepo.waiting(agentId)])
    return {
      connected: row !== undefined,
      apiKeyLast4: row ? row.apiKey.slice(-4) : null,
      createdDate: row ? iso(row.createdDate) : null,
      status: row?.status ?? 'ok',
      // What went wrong last, even after a success since: an agent looking for a lost lead sees why.
      lastError: row?.lastError ?? null,
      lastErrorAt: iso(row?.lastErrorAt ?? null),
      pending,
    }
  }

  /** A target that resolves to a private address, or to nothing, is refused with the field named. */
  async function acceptableTarget(url: string): Promise<void> {
    try {
      await checkTarget(url, d.config.webhooks.allowPrivateTargets)
    } catch (err) {
      const message =
        err instanceof PrivateTargetError
          ? 'This address leads to a private or local network; Porchlight only calls public addresses'
          : 'This address could not be found'
      throw new ValidationError([{ field: 'url', message }])
    }
  }

  return {
    /** The agent's own endpoints and those of the teams it leads or co-leads. */
    async list(caller: AgentRow): Promise<WebhookEndpoint[]> {
      const { ledTeamIds } = await d.access.actor(caller)
      return (await repo.listFor(caller.id, ledTeamIds)).map(toEndpoint)
    },

    /**
     * The secret is answered here only; it is never shown again. With a team, the endpoint hears the
     * events of everyone in it: only the team's lead or co-lead registers one.
     */
    async save(caller: AgentRow, body: SaveBody): Promise<CreatedWebhookEndpoint> {
      if (body.teamId !== null && !mayAddTeamWebhookEndpoint(await d.access.actor(caller), body.teamId)) {
        throw new ForbiddenError('You can only add endpoints for a team you lead or co-lead')
      }
      await acceptableTarget(body.url)
      const secret = newWebhookSecret()
      const row = await repo.createEndpoint({
        reAgentId: caller.id,
        teamId: body.teamId,
        url: body.url,
        description: body.description,
        events: body.events,
        secret,
      })
      return { id: row.id, secret }
    },

    async remove(caller: AgentRow, endpointId: number): Promise<void> {
      await d.access.webhookEndpoint(caller, endpointId)
      await repo.deleteEndpoint(endpointId)
    },

    async deliveries(
      caller: AgentRow,
      endpointId: number,
      q: { limit: number; offset: number },
    ): Promise<WebhookDelivery[]> {
      await d.access.webhookEndpoint(caller, endpointId)
      return (await repo.deliveries(endpointId, q.limit, q.offset)).map(toDelivery)
    },

    /** Sends a finished delivery again, with the same `webhook-id`, once. */
    async replay(caller: AgentRow, deliveryId: number): Promise<WebhookDelivery> {
      await d.access.webhookDelivery(caller, deliveryId)
      return inTransaction(d.db, async (trx) => {
        const reopened = await repo.reopen(deliveryId, trx)
        if (Number(reopened.numUpdatedRows) === 0) {
          const row = await repo.delivery(deliveryId, trx)
          if (row?.status === 'pending' || row?.status === 'sending') {
            throw new ConflictError('DELIVERY_PENDING', 'This delivery is still being attempted')
          }
          throw new ConflictError('ALREADY_REPLAYED', 'This delivery was replayed less than a minute ago')
        }
        await d.outbox.add(trx, 'webhooks', 'deliver', { deliveryId, manual: true })
        const row = await repo.delivery(deliveryId, trx)
        if (!row) throw new NotFoundError()
        return toDelivery(row)
      })
    },

    /** A `webhook.test` event, delivered once to this endpoint whatever it listens for. */
    async sendTest(caller: AgentRow, endpointId: number): Promise<WebhookDelivery> {
      await d.access.webhookEndpoint(caller, endpointId)
      return inTransaction(d.db, async (trx) => {
        const timestamp = new Date().toISOString()
        const { id } = await repo.createDelivery(
          {
            endpointId,
            messageId: newMessageId(),
            eventType: WEBHOOK_TEST_EVENT,
            payload: JSON.stringify({
              type: WEBHOOK_TEST_EVENT,
              timestamp,
              data: { endpointId, message: 'A test event from Porchlight' },
            }),
          },
          trx,
        )
        await d.outbox.add(trx, 'webhooks', 'deliver', { deliveryId: id, manual: true })
        const row = await repo.delivery(id, trx)
        if (!row) throw new NotFoundError()
        return toDelivery(row)
      })
    },

    /** The caller's own connector: whether it works, what went wrong last, how many leads wait. */
    async fub(caller: AgentRow): Promise<FubConnector> {
      return fubConnector(caller.id)
    },

    /**
     * A key is tried first with a cheap authenticated read (GET /v1/identity): one Follow Up Boss
     * refuses (401) is refused here with its reason, and never saved. One it could not be asked about
     * (down, too slow) is saved: nothing is known against it, and the leads will tell.
     */
    async saveFub(caller: AgentRow, body: FubBody): Promise<FubConnector> {
      let refusal: string | null = null
      try {
        const answer = await callFub(d.config.fub, body.apiKey, 'GET', '/v1/identity')
        if (answer.status === 401) refusal = answer.reason
      } catch {
        // Not answering is not a refusal.
      }
      if (refusal !== null) {
        const message = `Follow Up Boss refused this key: ${refusal}`
        throw new ValidationError([{ field: 'apiKey', message }], message)
      }
      await repo.saveFub(caller.id, body.apiKey)
      return fubConnector(caller.id)
    },

    /** Every lead waiting (after a new key, or once more with the same one), handed over once, now. */
    async retryFub(caller: AgentRow): Promise<FubConnector> {
      const connector = await repo.fub(caller.id)
      if (!connector) throw new ConflictError('NOT_CONNECTED', 'Save a Follow Up Boss API key first')
      await inTransaction(d.db, async (trx) => {
        await d.fubRepo.unblock(caller.id, trx)
        const ids = await d.fubRepo.reopenWaiting(caller.id, trx)
        await d.outbox.addEach(
          trx,
          'fub',
          'visit',
          ids.map((deliveryId) => ({ deliveryId })),
        )
      })
      return fubConnector(caller.id)
    },

    async removeFub(caller: AgentRow): Promise<void> {
      await repo.deleteFub(caller.id)
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
