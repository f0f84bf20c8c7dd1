// The OpenAPI document a client generator can trust (decision 043). Routes declare their schemas, their
// guard and their params; this file derives the rest of each operation in one place: its operationId,
// summary, security, every error it can answer (API.md's one error shape) and the real media type of the
// answers that are not JSON. Nothing here is written per route except the few error codes and media types
// no declaration carries (the tables below).
import type { SwaggerTransformObject } from '@fastify/swagger'
import { webhooksOpenApi } from '@porchlight/shared'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { createJsonSchemaTransform } from 'fastify-type-provider-zod'

/**
 * zod's JSON Schema, as the type provider writes it, without its default override: that override drops
 * the union branches it sees empty, and it sees a branch before zod fills it in, so `reAgentDateOfBirth`
 * (a date, null or '') came out as `''` only. OpenAPI 3.1 needs none of its 3.0 rewrites.
 */
const jsonSchemaTransform = createJsonSchemaTransform({ zodToJsonConfig: { override: () => undefined } })

type JsonObject = Record<string, unknown>
type Guard = 'user' | 'agent' | 'licensedAgent' | 'operator' | 'none'

/** What a route declares, kept per operation for the document's last pass. */
interface RouteFacts {
  guard: Guard
  params: boolean
  querystring: boolean
  body: boolean
}

/** API.md: `{"error": {"code", "message"}}`, and for 422 also `errors[]`. */
export const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error answer (API.md). `errors` lists the fields to fix on a 422.',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'UPPER_SNAKE, stable (e.g. NOT_FOUND, VALIDATION)' },
        message: { type: 'string', description: "Meant for people: SPEC §8's text where it has one" },
      },
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'The answer, under `data`',
  '201': 'Created: the new record, under `data` (with its `id`)',
  '202': 'Accepted: the work is queued',
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request (a malformed body, a bad path or query parameter)',
  401: 'Credentials refused',
  402: 'A pricing-plan limit would be passed',
  403: 'No, unknown or expired session, or not allowed',
  404: 'No such record, or one the caller may not know exists',
  409: 'Conflict with the current state',
  410: 'Used up for good (a single-use capability already used, or its offer ended)',
  413: 'Body too large',
  415: 'Body not in a media type this operation reads',
  422: 'A body that fails its schema or a rule; `errors` names the fields',
  429: 'Too many requests (Retry-After says when to try again)',
  500: 'Unexpected failure (logged with the request id; no detail is answered)',
  503: 'A server the request needs is briefly away (Retry-After says when to try again)',
}

/**
 * Error codes no declaration carries: what a service answers beyond the guard, the params and the body
 * (the codes of API.md's table, by operation). Each status listed is documented with its codes.
 */
const FIRM_DECISION = ['NOT_VERIFIED', 'ROLE_HELD', 'LICENSE_REQUIRED', 'ALREADY_DECIDED', 'LAST_TEAM_LEAD']
const SCHEDULE = ['OPEN_HOUSE_ALREADY_SCHEDULED', 'STALE', 'INVALID_STATE']
const CREATES_OPEN_HOUSE = { 402: ['NO_ACTIVE_PLAN', 'PLAN_LIMIT_OPEN_HOUSES'], 409: ['INVALID_STATE'] }
const STATE = { 409: ['INVALID_STATE'] }
export const KNOWN_ERRORS: Record<string, Record<number, string[]>> = {
  'ready.get': { 503: ['NOT_READY'] },
  'signing.savePorchlightUser': { 409: ['EMAIL_EXISTS'] },
  'signing.validateEmailId': { 400: ['INVALID_CODE'] },
  'signing.authenticate': { 401: ['BAD_CREDENTIALS'] },
  'signing.user': { 409: ['EMAIL_EXISTS'] },
  'signing.confirmEmailChange': { 400: ['INVALID_CODE'], 409: ['EMAIL_EXISTS'] },
  'reagentmgmt.saveREAgent': { 409: ['EMAIL_EXISTS'] },
  'reagentmgmt.requestFirmVerification': STATE,
  'reagentmgmt.approveFirmMember': { 409: FIRM_DECISION },
  'reagentmgmt.declineFirmMember': { 409: FIRM_DECISION },
  'reagentmgmt.grantFirmRole': { 409: FIRM_DECISION },
  'admin.verifyFirmMember': { 409: FIRM_DECISION },
  'admin.grantFirmRole': { 409: FIRM_DECISION },
  'pricingplanmgmt.getPlanUtilization': { 402: ['NO_ACTIVE_PLAN'] },
  'reinventorymgmt.saveREInventoryPatch': STATE,
  'reinventorymgmt.deleteREInventory': STATE,
  'openhousemgmt.saveOpenHouse': { ...CREATES_OPEN_HOUSE, 409: SCHEDULE },
  'openhousemgmt.saveOpenHousePatch': { 409: SCHEDULE },
  'openhousemgmt.updateOpenHouseSchedule': { 409: SCHEDULE },
  'openhousemgmt.cancelOpenHouse': STATE,
  'openhousemgmt.cloneOpenHouse': CREATES_OPEN_HOUSE,
  'openhousemgmt.addAnotherDay': CREATES_OPEN_HOUSE,
  'openhousemgmt.publishOpenHouseOpportunity': {
    402: ['NO_ACTIVE_PLAN', 'PLAN_LIMIT_PUBLISH'],
    409: ['INVALID_STATE'],
  },
  'openhousemgmt.claimToHostOpenHouse': { 409: ['ALREADY_CLAIMED', 'SCHEDULE_FIXED', 'INVALID_STATE'] },
  'openhousemgmt.withdrawToHostOpenHouse': STATE,
  'openhousemgmt.calendar': STATE,
  'openhousemgmt.getDoorSignPdf': STATE,
  'openhousemgmt.AddAttendee': { 409: ['ALREADY_ATTENDEE', 'INVALID_STATE'] },
  'openhousemgmt.sendOpenHouseHostingReport': STATE,
  'openhousemgmt.requestOpenHouseHostingReport': STATE,
  'openhousemgmt.sendOpenHouseAttendeeReport': STATE,
  'public.saveProspect': { 409: ['PROSPECT_EXISTS', 'CLIENT_REQUEST_REUSED', 'INVALID_STATE'] },
  'prospectmgmt.saveProspect': { 409: ['PROSPECT_EXISTS'] },
  'public.saveOpenHouseFeedback': { 409: ['FEEDBACK_EXISTS', 'INVALID_STATE'] },
  'feedback.saveOpenHouseFeedback': STATE,
  'reteammgmt.saveRETeam': { 402: ['NO_ACTIVE_PLAN', 'PLAN_LIMIT_TEAMS'], 409: ['TEAM_TYPE_EXISTS'] },
  'reteammgmt.saveRETeamPatch': { 409: ['TEAM_TYPE_EXISTS'] },
  'reteammgmt.addMemberToRETeam': {
    402: ['NO_ACTIVE_PLAN', 'PLAN_LIMIT_MEMBERS'],
    409: ['ALREADY_TEAM_MEMBER'],
  },
  'reteammgmt.acceptTeamInvitation': STATE,
  'reteammgmt.declineTeamInvitation': STATE,
  'webhookmgmt.replayWebhookDelivery': { 409: ['DELIVERY_PENDING', 'ALREADY_REPLAYED'] },
  'webhookmgmt.retryFubConnector': { 409: ['NOT_CONNECTED'] },
  'notificationmgmt.savePushSubscription': { 503: ['PUSH_OFF'] },
  'public.claimFromNotification': {
    409: ['ALREADY_CLAIMED', 'SCHEDULE_FIXED', 'INVALID_STATE'],
    410: ['GONE'],
  },
  'geocoder.search': { 503: ['GEOCODER_UNAVAILABLE'] },
}

/** The answers that are not JSON: their media type (the success answer) by operation. */
export const MEDIA_TYPES: Record<string, { type: string; binary?: boolean; description?: string }> = {
  'openhousemgmt.calendar': { type: 'text/calendar' },
  'public.calendar': { type: 'text/calendar' },
  'prospectmgmt.export': { type: 'text/csv' },
  'prospectmgmt.getProspectVCard': { type: 'text/vcard' },
  'prospectmgmt.exportVCards': { type: 'text/vcard' },
  'openhousemgmt.getDoorSignPdf': { type: 'application/pdf', binary: true },
  'public.unsubscribe': { type: 'text/html' },
  'public.unsubscribePost': {
    type: 'text/html',
    description:
      "The page's confirmation (posted from the page); a mail client's one-click POST gets an empty 200",
  },
  'public.unsubscribeSeller': { type: 'text/html' },
  'public.unsubscribeSellerPost': {
    type: 'text/html',
    description:
      "The page's confirmation (posted from the page); a mail client's one-click POST gets an empty 200",
  },
}

/** Operations whose body is a form post (RFC 8058's one-click unsubscribe), not JSON. */
export const FORM_BODIES = new Set(['public.unsubscribePost', 'public.unsubscribeSellerPost'])

/** Summaries the route's name does not say well by itself. */
export const SUMMARIES: Record<string, string> = {
  'health.get': 'Liveness: the process answers',
  'ready.get': 'Readiness: the database and Redis answer',
  'reagentmgmt.patch': 'Edit an agent profile',
  'signing.user': "Edit the signed-in user's account",
  'signing.session': 'The signed-in session',
  'openhousemgmt.AddAttendee': 'Add an attendee to an open house',
  'openhousemgmt.calendar': 'Download an open house as an iCalendar event',
  'public.calendar': "An agent's calendar feed (iCalendar, by its secret address)",
  'prospectmgmt.export': 'Export prospects as CSV',
  'public.unsubscribe': 'The unsubscribe page (asks to confirm)',
  'public.unsubscribePost': 'Unsubscribe (RFC 8058 one-click, or the page)',
  'public.unsubscribeSeller': "The seller's unsubscribe page (asks to confirm)",
  'public.unsubscribeSellerPost': "The seller's unsubscribe (RFC 8058 one-click, or the page)",
  'admin.firmVerificationRequests': "The operator's list of firm verification requests",
}

/** Words of route names kept as written (acronyms of the SPEC's names). */
const KEEP = new Set(['RE', 'OH', 'PDF', 'CSV'])

/** `getREAgentsByBrokerFirmLicense` → "Get RE agents by broker firm license". */
export function humanize(action: string): string {
  const words = action
    .replace('VCard', 'Vcard')
    .replace('Fub', 'FUB')
    .match(/[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [action]
  const text = words
    .map((w) =>
      w === 'FUB'
        ? 'Follow Up Boss'
        : /^Vcards?$/.test(w)
          ? `vC${w.slice(2)}`
          : KEEP.has(w)
            ? w
            : w.toLowerCase(),
    )
    .join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The route's name in words; a second method on the same name says it changes an existing record. */
function summaryOf(id: string, method: string): string {
  const action = id.slice(id.indexOf('.') + 1)
  const suffix = method[0]?.toUpperCase() + method.slice(1)
  if (!action.endsWith(suffix) || action === suffix) return humanize(action)
  return `${humanize(action.slice(0, -suffix.length))} (${method === 'delete' ? 'delete' : 'an existing one'})`
}

/** `/api/reinventorymgmt/saveREInventory/{id}` → `reinventorymgmt.saveREInventory` (before collisions). */
export function baseOperationId(path: string, method: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((segment) => segment && !segment.includes('{'))
  const [group = 'root', ...rest] = words
  return `${group}.${rest.at(-1) ?? method.toLowerCase()}`
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The swagger plugin's `transform` and `transformObject`, and the facts they share. */
export function openApiTransforms(app: FastifyInstance) {
  const facts = new Map<string, RouteFacts>()

  function guardOf(route: RouteOptions): Guard {
    if (route.url.startsWith('/api/admin/')) return 'operator'
    const handlers = [route.preHandler ?? []].flat()
    if (handlers.includes(app.requireLicensedAgent)) return 'licensedAgent'
    if (handlers.includes(app.requireAgent)) return 'agent'
    if (handlers.includes(app.requireUser)) return 'user'
    return 'none'
  }

  const transform: typeof jsonSchemaTransform = (document) => {
    const result = jsonSchemaTransform(document)
    const route = (document as { route?: RouteOptions }).route
    const schema = document.schema as JsonObject | undefined
    if (route && schema) {
      for (const method of [route.method].flat()) {
        facts.set(key(method, openApiPath(route.url)), {
          guard: guardOf(route),
          params: Boolean(schema.params),
          querystring: Boolean(schema.querystring),
          body: Boolean(schema.body),
        })
      }
    }
    return result
  }

  const transformObject: SwaggerTransformObject = (document) => {
    if (!('openapiObject' in document)) return document.swaggerObject
    const doc = document.openapiObject as JsonObject & { paths: Record<string, Record<string, JsonObject>> }
    // Every event we POST, from the payload schemas in shared: worked out when the document is first
    // asked for, not as the server starts (about 65 ms of a start on a 2-core machine).
    doc.webhooks = webhooksOpenApi()
    const components = (doc.components ?? {}) as JsonObject
    doc.components = {
      ...components,
      schemas: { ...(components.schemas as JsonObject), Error: ERROR_SCHEMA },
    }

    const ids = operationIds(doc.paths)
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method) || !isObject(op)) continue
        const id = ids.get(key(method, path)) as string
        const routeFacts = facts.get(key(method, path))
        op.operationId ??= id
        op.summary ??= SUMMARIES[id] ?? summaryOf(id, method)
        if (routeFacts) describe(op, id, method, routeFacts)
      }
    }
    return tidy(doc) as ReturnType<SwaggerTransformObject>
  }

  return { transform, transformObject }
}

/** Unique operationIds: a name two routes share gets its method, except on the GET (or else the POST). */
function operationIds(paths: Record<string, Record<string, unknown>>): Map<string, string> {
  const byBase = new Map<string, Array<{ method: string; path: string }>>()
  for (const [path, item] of Object.entries(paths)) {
    for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
      const base = baseOperationId(path, method)
      byBase.set(base, [...(byBase.get(base) ?? []), { method, path }])
    }
  }
  const ids = new Map<string, string>()
  for (const [base, routes] of byBase) {
    const primary = routes.find((r) => r.method === 'get') ?? routes.find((r) => r.method === 'post')
    for (const r of routes) {
      const suffix =
        routes.length === 1 || r === primary ? '' : r.method[0]?.toUpperCase() + r.method.slice(1)
      ids.set(key(r.method, r.path), `${base}${suffix}`)
    }
  }
  const seen = new Set<string>()
  for (const id of ids.values()) {
    if (seen.has(id)) throw new Error(`Two API operations would share the operationId ${id}`)
    seen.add(id)
  }
  return ids
}

/** Security, error answers and media types of one operation, from what its route declares. */
function describe(op: JsonObject, id: string, method: string, facts: RouteFacts): void {
  const errors = new Map<number, Set<string>>()
  const add = (status: number, ...codes: string[]) => {
    const set = errors.get(status) ?? new Set<string>()
    for (const code of codes) set.add(code)
    errors.set(status, set)
  }
  op.security = facts.guard === 'none' ? [] : [{ bearer: [] }]
  if (facts.guard === 'operator') add(404, 'NOT_FOUND')
  if (facts.guard === 'user' || facts.guard === 'agent' || facts.guard === 'licensedAgent') {
    add(403, 'SESSION_EXPIRED', 'FORBIDDEN')
    if (facts.guard !== 'user') add(403, 'NO_AGENT_PROFILE')
    if (facts.guard === 'licensedAgent') add(403, 'LICENSE_INVALID')
  }
  if (facts.params || facts.querystring) add(400, 'BAD_REQUEST')
  // A path naming a record: one that does not exist, or the caller may not know, is 404.
  if (facts.params) add(404, 'NOT_FOUND')
  // The error handler's net under the services (error-handler.ts): a write PostgreSQL refuses as a
  // duplicate is 409, one whose body names a record that does not exist 404.
  if (method !== 'get') add(409, 'CONFLICT')
  if (facts.body) {
    add(404, 'NOT_FOUND')
    add(400, 'BAD_REQUEST')
    add(413, 'PAYLOAD_TOO_LARGE')
    add(415, 'UNSUPPORTED_MEDIA_TYPE')
    add(422, 'VALIDATION')
  }
  // Any request may meet the rate limit, a database away or a fault.
  add(429, 'RATE_LIMITED')
  add(500, 'INTERNAL')
  add(503, 'UNAVAILABLE')
  for (const [status, codes] of Object.entries(KNOWN_ERRORS[id] ?? {})) add(Number(status), ...codes)

  const responses = (op.responses ?? {}) as Record<string, JsonObject>
  const media = MEDIA_TYPES[id]
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith('2')) continue
    if (media) {
      const schema = media.binary ? { type: 'string', format: 'binary' } : { type: 'string' }
      response.content = { [media.type]: { schema } }
    }
    if (response.description === 'Default Response') {
      response.description =
        media?.description ?? (media ? `The ${media.type} document` : (SUCCESS_TEXT[status] ?? 'Done'))
    }
  }
  for (const [status, codes] of [...errors].sort(([a], [b]) => a - b)) {
    const content: JsonObject = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
    // A person's browser gets a page for an unknown unsubscribe link; any other caller the JSON error.
    if (media?.type === 'text/html' && status === 404) content['text/html'] = { schema: { type: 'string' } }
    responses[String(status)] ??= {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${[...codes].join(', ')}`,
      content,
    }
  }
  op.responses = responses

  const body = op.requestBody as { content?: Record<string, unknown> } | undefined
  if (FORM_BODIES.has(id) && body?.content?.['application/json']) {
    const json = body.content['application/json']
    body.content = { 'application/x-www-form-urlencoded': json, 'multipart/form-data': json }
  }
}

/**
 * What zod writes that the document's readers trip on: an `anyOf` of one schema is that schema, and
 * an empty `anyOf` (nothing zod could say) is any value.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy)
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(node)) out[k] = tidy(v)
  const anyOf = out.anyOf
  if (Array.isArray(anyOf) && anyOf.length <= 1) {
    const { anyOf: _, ...rest } = out
    return anyOf.length === 1 && isObject(anyOf[0]) ? { ...rest, ...anyOf[0] } : rest
  }
  return out
}
