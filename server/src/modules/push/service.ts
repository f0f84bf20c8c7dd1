import {
  type ClaimFromNotificationBody,
  DEFAULT_PUSH_EVENTS,
  messages,
  type NotificationSettings,
  type OpenHouseDetails,
  type PushSubscriptionView,
  type SavePushSubscriptionBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Config } from '../../config.ts'
import type { AgentRow } from '../../db/rows.ts'
import {
  ForbiddenError,
  GoneError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { AgentService } from '../agents/service.ts'
import { checkTarget } from '../webhooks/targets.ts'
import { hashClaimToken } from './notify.ts'
import type { PushRepo } from './repo.ts'

type Settings = z.output<typeof NotificationSettings>

export interface PushServiceDeps {
  repo: PushRepo
  access: Access
  agents: AgentService
  /** The claim, exactly as the agent makes it from the app. */
  claim: (caller: AgentRow, openHouseId: number) => Promise<OpenHouseDetails>
  config: Pick<Config, 'push'>
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/** The owner's subscriptions and settings, and the claim from a notification (decision 050). */
export function createPushService(d: PushServiceDeps) {
  const { repo } = d
  return {
    publicKey: () => d.config.push.vapid?.publicKey ?? null,

    async save(caller: AgentRow, body: z.output<typeof SavePushSubscriptionBody>): Promise<{ id: number }> {
      if (!d.config.push.vapid)
        throw new ServiceUnavailableError('PUSH_OFF', 'Notifications are not set up on this server')
      const url = new URL(body.endpoint)
      const allowPrivate = d.config.push.allowPrivateTargets
      const refuse = () =>
        new ValidationError([{ field: 'endpoint', message: 'Not a push service Porchlight can reach' }])
      if (url.protocol !== 'https:' && !allowPrivate) throw refuse()
      // A push service is chosen by the browser, so it is refused as a webhook target would be.
      await checkTarget(body.endpoint, allowPrivate).catch(() => {
        throw refuse()
      })
      return repo.saveSubscription({
        reAgentId: caller.id,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
      })
    },

    async list(caller: AgentRow): Promise<Array<z.output<typeof PushSubscriptionView>>> {
      const rows = await repo.subscriptionsOf(caller.id)
      return rows.map((r) => ({
        id: r.id,
        service: new URL(r.endpoint).origin,
        createdDate: iso(r.createdDate) ?? '',
        lastSuccessAt: iso(r.lastSuccessAt),
      }))
    },

    async remove(caller: AgentRow, id: number): Promise<{ id: number }> {
      await d.access.pushSubscription(caller, id)
      await repo.deleteSubscription(id)
      return { id }
    },

    async settings(caller: AgentRow): Promise<Settings> {
      const row = await repo.settings(caller.id)
      if (!row) return { events: [...DEFAULT_PUSH_EVENTS], quietHours: null, timeZone: 'UTC' }
      return {
        events: row.events as Settings['events'],
        quietHours: row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
        timeZone: row.timeZone ?? 'UTC',
      }
    },

    async saveSettings(caller: AgentRow, body: Settings): Promise<Settings> {
      await repo.saveSettings({
        reAgentId: caller.id,
        events: body.events,
        quietStart: body.quietHours?.start ?? null,
        quietEnd: body.quietHours?.end ?? null,
        timeZone: body.timeZone,
      })
      return body
    },

    /**
     * Claims with a capability from an offer's push: once, as its agent, by the same claim (policy,
     * race, messages). A caller signed in as someone else is refused and the capability kept.
     */
    async claimFromNotification(
      caller: AgentRow | null,
      body: z.output<typeof ClaimFromNotificationBody>,
    ): Promise<{ openHouseId: number; message: string; openHouse: OpenHouseDetails }> {
      const hash = hashClaimToken(body.claimToken)
      const owner = await repo.useClaimTokenOwner(hash)
      if (!owner) throw new NotFoundError('This claim link is not valid')
      if (caller && owner.reAgentId !== caller.id) {
        throw new ForbiddenError('This notification is for another agent')
      }
      const agent = await d.agents.findById(owner.reAgentId)
      if (!agent) throw new NotFoundError('This claim link is not valid')
      // As the claim route's guard (requireLicensedAgent) asks.
      if (!agent.reAgentLicenseValidityFlag)
        throw new ForbiddenError(messages.licenseNotValid, 'LICENSE_INVALID')
      const used = await repo.useClaimToken(hash)
      if (!used.ok) throw new GoneError('This notification was already used or its offer has ended')
      const openHouse = await d.claim(agent, used.openHouseId)
      return {
        openHouseId: used.openHouseId,
        message: `You're hosting ${openHouse.reProperty.completePropertyAddress}`,
        openHouse,
      }
    },
  }
}

export type PushService = ReturnType<typeof createPushService>
