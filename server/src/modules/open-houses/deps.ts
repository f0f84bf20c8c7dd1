import type { Db } from '../../db/database.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import type { Access } from '../../policy/access.ts'
import type { EventSink } from '../../realtime/events.ts'
import type { StatsNotifier } from '../../realtime/stats.ts'
import type { AgentService } from '../agents/service.ts'
import type { CustomQuestions } from '../custom-questions/service.ts'
import type { InventoryService } from '../inventory/service.ts'
import type { PricingService } from '../pricing/service.ts'
import type { OpenHouseRepo } from './repo.ts'

/** What createOpenHouseService is built from; each part of the service picks the few it uses. */
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
  /** Outgoing webhooks: published, claimed and canceled are told to the agents' endpoints. */
  webhooks: WebhookEvents
  /** Web Push: an offer reaches the agents' browsers, a claim replaces it (decision 050). */
  push: PushEvents
  /** The visitors' custom questions, saved and copied with the open house. */
  questions: CustomQuestions
}
