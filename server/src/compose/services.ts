import type { Redis } from 'ioredis'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { Outbox } from '../jobs/outbox.ts'
import { createAgentRepo } from '../modules/agents/repo.ts'
import { createAgentService } from '../modules/agents/service.ts'
import { createAttendeeRepo } from '../modules/attendees/repo.ts'
import { createAttendeeService } from '../modules/attendees/service.ts'
import { createAccountLimits } from '../modules/auth/limits.ts'
import { createAuthRepo } from '../modules/auth/repo.ts'
import { createAuthService } from '../modules/auth/service.ts'
import { createSessionCache, type SessionCache } from '../modules/auth/session-cache.ts'
import { createSessionService, type SessionWithAgent } from '../modules/auth/sessions.ts'
import { createCalendarRepo } from '../modules/calendar/repo.ts'
import { createCalendarService } from '../modules/calendar/service.ts'
import { createConsentRepo } from '../modules/consent/repo.ts'
import { createConsentService } from '../modules/consent/service.ts'
import { createContactCardService } from '../modules/contact-cards/service.ts'
import { createCustomQuestionRepo } from '../modules/custom-questions/repo.ts'
import { createCustomQuestions } from '../modules/custom-questions/service.ts'
import { createDoorSignService } from '../modules/door-sign/service.ts'
import { createFeedbackRepo } from '../modules/feedback/repo.ts'
import { createFeedbackService } from '../modules/feedback/service.ts'
import { createInventoryRepo } from '../modules/inventory/repo.ts'
import { createInventoryService } from '../modules/inventory/service.ts'
import { createOpenHouseRepo } from '../modules/open-houses/repo.ts'
import { createOpenHouseService } from '../modules/open-houses/service.ts'
import { createPricingRepo } from '../modules/pricing/repo.ts'
import { createPricingService } from '../modules/pricing/service.ts'
import { createPropertyRepo } from '../modules/properties/repo.ts'
import { createPropertyService } from '../modules/properties/service.ts'
import { createProspectRepo } from '../modules/prospects/repo.ts'
import { createProspectService } from '../modules/prospects/service.ts'
import { createPushNotifier } from '../modules/push/notify.ts'
import { createPushRepo } from '../modules/push/repo.ts'
import { createPushService } from '../modules/push/service.ts'
import { createReportService } from '../modules/reports/service.ts'
import { createSellerReportRepo } from '../modules/seller-report/repo.ts'
import { createSellerReportService } from '../modules/seller-report/service.ts'
import { createStatsRepo } from '../modules/stats/repo.ts'
import { createStatsService } from '../modules/stats/service.ts'
import { createTeamRepo } from '../modules/teams/repo.ts'
import { createTeamService } from '../modules/teams/service.ts'
import { createWebhookEvents } from '../modules/webhooks/events.ts'
import { createFubRepo } from '../modules/webhooks/fub-repo.ts'
import { createWebhookRepo } from '../modules/webhooks/repo.ts'
import { createWebhookService } from '../modules/webhooks/service.ts'
import { createAccess } from '../policy/access.ts'
import { createSocketAuthority } from '../policy/sockets.ts'
import type { Live } from '../realtime/events.ts'
import { withCoalescedHints } from '../realtime/hints.ts'
import { createStatsNotifier } from '../realtime/stats.ts'
import { createSecretBox } from '../secrets.ts'

/** What the services stand on; the API process and the worker each open their own. */
export interface ServiceInfra {
  config: Config
  db: Db
  outbox: Outbox
  /** The socket.io server in the API process, the Redis emitter in a worker. */
  live: Live
  /** A fail-fast Redis connection (account limits). */
  redis: Redis
  /** Sessions kept briefly (the API process); without it every request reads its session. */
  sessionCache?: SessionCache<SessionWithAgent>
}

/**
 * The one place that builds the domain: every repository and service, once, from the infrastructure.
 * Each module gets the services it asks for; no module builds another's repository.
 */
export function createServices(infra: ServiceInfra) {
  const { config, db, outbox } = infra
  // Hints to refetch go once per room and moment (realtime/hints.ts); every other event at once.
  const live = withCoalescedHints(infra.live)
  const secrets = createSecretBox(config.secrets.keys)
  const access = createAccess(db)
  // Web Push (decision 050): what the services tell agents' browsers goes through the outbox.
  const pushRepo = createPushRepo(db)
  const pushEvents = createPushNotifier({
    db,
    repo: pushRepo,
    outbox,
    secrets,
    access,
    config,
    presence: live.rooms,
  })
  const sessions = createSessionService(db, live.rooms, infra.sessionCache ?? createSessionCache(0), access)
  const pricing = createPricingService(db, createPricingRepo(db))
  const properties = createPropertyService(createPropertyRepo(db), access)
  const inventory = createInventoryService(db, createInventoryRepo(db), properties)
  const agents = createAgentService({
    db,
    repo: createAgentRepo(db),
    access,
    outbox,
    config,
    sockets: live.rooms,
    push: pushEvents,
  })
  // Outgoing webhooks and Follow Up Boss: the services that change things write their events.
  const webhookRepo = createWebhookRepo(db, secrets)
  const fubRepo = createFubRepo(db)
  const customQuestions = createCustomQuestions(createCustomQuestionRepo(db), access)
  const webhookEvents = createWebhookEvents({
    db,
    repo: webhookRepo,
    fubRepo,
    outbox,
    config,
    questions: customQuestions,
  })
  const webhooks = createWebhookService({ db, repo: webhookRepo, fubRepo, outbox, access, config })
  const teamRepo = createTeamRepo(db)
  const statsEvents = createStatsNotifier(teamRepo.teamIdsOf, live)
  const attendees = createAttendeeService({
    db,
    stats: statsEvents,
    repo: createAttendeeRepo(db),
    events: live,
    access,
    webhooks: webhookEvents,
    push: pushEvents,
  })
  const consent = createConsentService({
    db,
    repo: createConsentRepo(db),
    outbox,
    access,
    webhooks: webhookEvents,
    config,
    secrets,
    mailContext: attendees.mailContext,
  })
  const teams = createTeamService({
    db,
    repo: teamRepo,
    agents,
    pricing,
    events: live,
    access,
    outbox,
    config,
    sockets: live.rooms,
    push: pushEvents,
  })
  const openHouses = createOpenHouseService({
    db,
    stats: statsEvents,
    outbox,
    config,
    repo: createOpenHouseRepo(db),
    agents,
    pricing,
    inventory,
    events: live,
    access,
    webhooks: webhookEvents,
    push: pushEvents,
    questions: customQuestions,
  })
  const push = createPushService({
    repo: pushRepo,
    access,
    agents,
    claim: (caller, openHouseId) => openHouses.claim(caller, openHouseId),
    config,
  })
  const prospects = createProspectService({
    db,
    outbox,
    repo: createProspectRepo(db),
    attendees,
    access,
    webhooks: webhookEvents,
    questions: customQuestions,
  })
  const contactCards = createContactCardService({ prospects, access, config })
  const feedback = createFeedbackService({
    db,
    outbox,
    repo: createFeedbackRepo(db),
    attendees,
    events: live,
    access,
    webhooks: webhookEvents,
    push: pushEvents,
  })
  const limits = createAccountLimits(infra.redis, config.redis.prefix)
  const auth = createAuthService({
    db,
    repo: createAuthRepo(db),
    sessions,
    agents,
    pricing,
    outbox,
    limits,
    config,
  })
  const stats = createStatsService({ repo: createStatsRepo(db), access, teams })
  const reports = createReportService({
    db,
    outbox,
    events: live,
    agents,
    openHouses,
    prospects,
    feedback,
    attendees,
    access,
  })
  const doorSigns = createDoorSignService({ access, openHouses, config })
  const sellerReports = createSellerReportService({
    db,
    repo: createSellerReportRepo(db),
    access,
    sockets: live.rooms,
    outbox,
    secrets,
    config,
  })
  const calendarFeeds = createCalendarService({ repo: createCalendarRepo(db, secrets), config })
  const socketAuthority = createSocketAuthority({
    access,
    session: (token) => sessions.validateWithAgent(token),
    agentById: (id) => agents.findById(id),
    sellerReportOpenHouse: (token) => sellerReports.openHouseForSocket(token),
  })
  return {
    access,
    sessions,
    pricing,
    properties,
    inventory,
    agents,
    auth,
    /** Per-account and per-source failure counts (sign-in, the queue dashboard's password). */
    limits,
    attendees,
    teams,
    openHouses,
    prospects,
    feedback,
    stats,
    statsEvents,
    /**
     * Live work told in batches ('stats.changed', refetch hints, guests' pushes): stopped before the
     * process's Redis and database connections close.
     */
    stopBatchedLive() {
      statsEvents.stop()
      live.stop()
      pushEvents.stop()
    },
    reports,
    doorSigns,
    webhooks,
    webhookEvents,
    webhookRepo,
    fubRepo,
    push,
    pushRepo,
    consent,
    customQuestions,
    contactCards,
    sellerReports,
    calendarFeeds,
    socketAuthority,
    /** Seals and opens the secrets kept in the database (SECRETS_KEY). */
    secrets,
  }
}

export type Services = ReturnType<typeof createServices>
