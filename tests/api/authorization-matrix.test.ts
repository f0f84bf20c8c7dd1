// The authorization matrix: every API route that takes an id (a path parameter, plus the routes that take
// one in their body) × seven callers, each cell the status the one policy (shared/src/rules/policy.ts,
// server/src/policy/access.ts, API.md) calls for; a refused write must leave the database as it was. The
// matrix is driven by `app.routeTable`: a new route with a path parameter and no entry here fails the suite.
//
// The callers, always in this order in a row of expected statuses:
//   owner      whoever the resource is: the listing agent of an open house, the owner of an inventory item
//              or a prospect, the agent itself for agent-id routes (O unless a case says otherwise), the
//              Team Lead T for team routes (O is an accepted member of T's team).
//   otherFirm  X, a verified agent of another firm.
//   unverified P, an agent of the owner's firm whose membership is still pending.
//   verified   V, a verified agent of the owner's firm, on no team.
//   teamLead   U, a verified Team Lead of the owner's firm with no team with O or T.
//   teammate   M, a verified agent who accepted to join T's team, as O did: O's teammate, T's member.
//   anonymous  no token (on /api/public/... and the guest's feedback PATCH, what a guest without its
//              guest token is; every agent caller is that too there).
//
// The sequence dimension (issue 37): before every cell, an agent caller first edits everything it may
// edit about itself, as an attacker would — its profile's role (Team Lead), firm name and license (the
// owner's firm), license number and email (the owner's), a request to join T's team, an invitation to
// accept, a role granted to itself and its own firm membership approved — and only then acts. What its
// authority rests on (role held, firm, membership, email, teams, grants) must come out unchanged, and
// the cell's answer is the one of the row: 0 leaks.
//
// Open-house cases run on open houses of O (Market Center level) in three states: 'unpublished' (only the
// relations decide: O alone sees it), 'offered' (published to O's firm: V, U and M see it, P and X do not)
// and 'hosted' (offered, then claimed by V). A cell whose expected status contradicts what the server
// answers is marked `SERVER:` with the reason.

import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { hashPassword, hashSecret } from '@porchlight/server/src/modules/auth/passwords.ts'
import { hashClaimToken } from '@porchlight/server/src/modules/push/notify.ts'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import {
  type AgentOverrides,
  daysFromNow,
  makePlannedAgent,
  makeUser,
  propertyFields,
  scheduleFields,
  validAgentFields,
} from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { newVapidKeys } from '../support/push-service.ts'
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts'

const OWNER_PASSWORD = 'Owner-Passw0rd!'
const CHANGE_CODE = '482913'
const ADMIN_TOKEN = `admin-${randomBytes(16).toString('hex')}`

let t: TestApp
let w: World
// Follow Up Boss as a key being saved is tried against it (every key works here).
let fub: Receiver

beforeAll(async () => {
  fub = await startReceiver()
  t = await buildTestApp({
    env: {
      ADMIN_TOKEN,
      FUB_API_URL: fub.url,
      // Push is on, so its routes answer what they would in production (no push is sent: no worker runs).
      ...vapidEnv(),
      PUSH_ALLOW_PRIVATE_TARGETS: 'true',
    },
    // The matrix makes several hundred calls from one address within a minute.
    configure: (config) => {
      config.rateLimit.max = 100_000
      config.rateLimit.guestPerMinute = 100_000
    },
  })
  w = await buildWorld()
})
afterAll(async () => {
  await t?.close()
  await fub?.close()
})

// ---------------------------------------------------------------------------------------------------
// Callers and expected rows

const ROLES = ['owner', 'otherFirm', 'unverified', 'verified', 'teamLead', 'teammate', 'anonymous'] as const
type Role = (typeof ROLES)[number]
/** Expected statuses in ROLES order: owner, otherFirm, unverified, verified, teamLead, teammate, anonymous. */
type Row = readonly [number, number, number, number, number, number, number]
/** The owner calls last: its call is the one most likely to succeed and change the resource. */
const RUN_ORDER: readonly Role[] = [
  'anonymous',
  'otherFirm',
  'unverified',
  'verified',
  'teamLead',
  'teammate',
  'owner',
]

/** The path's agent id is the owner's: only the owner (API.md: someone else's id is 403). */
const SELF: Row = [200, 403, 403, 403, 403, 403, 403]
/** The owner's alone; nobody else may know it exists. */
const onlyOwner = (ok: number): Row => [ok, 404, 404, 404, 404, 404, 403]
/** The same answer for everyone, token or not. */
const everyone = (status: number): Row => [status, status, status, status, status, status, status]
/** Every signed-in caller refused (a path naming an agent other than the caller). */
const ALL_FORBIDDEN: Row = everyone(403)

// ---------------------------------------------------------------------------------------------------
// The fixture world

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

interface World {
  firm: string
  O: Agent
  T: Agent
  M: Agent
  R: Agent
  V: Agent
  P: Agent
  U: Agent
  X: Agent
  teamId: number
  /** O's prospect, and V's (V adds its own as host). */
  prospect: { id: number; email: string }
  vProspectId: number
  brokeragePlanId: number
}

const unique = () => randomBytes(4).toString('hex')

const prospectBody = (email = `lead-${unique()}@example.com`) => ({
  prospectFirstName: 'Quinn',
  prospectLastName: 'Harper',
  prospectEmailId: email,
  prospectPhoneNumber: '678 555 0101',
})

async function buildWorld(): Promise<World> {
  const firm = `AUTHZ-${unique()}`
  const make = (overrides: AgentOverrides) =>
    makePlannedAgent(t.db, { brokerFirmLicense: firm, ...overrides }, 'Brokerage')
  const O = await make({ firstName: 'Olive' })
  const T = await make({ firstName: 'Tess', role: 'Team Lead' })
  const M = await make({ firstName: 'Mona' })
  const R = await make({ firstName: 'Remy' })
  const V = await make({ firstName: 'Vera' })
  const P = await make({ firstName: 'Pat', firmStatus: 'pending' })
  const U = await make({ firstName: 'Uma', role: 'Team Lead' })
  const X = await makePlannedAgent(t.db, { brokerFirmLicense: `AUTHZ-${unique()}`, firstName: 'Xavi' })

  // T's team, which O, M and R accepted to join (as they would from the invitation).
  const team = await t.db
    .insertInto('reTeam')
    .values({
      reTeamName: 'Porch Crew',
      teamType: 'Real Estate Team',
      reTeamLeadId: T.agent.id,
      createdByReAgentId: T.agent.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const member of [O, M, R]) await acceptedMember(team.id, member, T)

  const saveProspect = async (who: Agent) => {
    const email = `lead-${unique()}@example.com`
    const res = await send('POST', '/api/prospectmgmt/saveProspect', who.token, prospectBody(email))
    if (res.status !== 201) throw new Error(`prospect: ${JSON.stringify(res.body)}`)
    return { id: res.body.data.id as number, email }
  }
  const plan = await t.db
    .selectFrom('pricingPlan')
    .select('id')
    .where('pricingPlanTitle', '=', 'Brokerage')
    .executeTakeFirstOrThrow()
  return {
    firm,
    O,
    T,
    M,
    R,
    V,
    P,
    U,
    X,
    teamId: team.id,
    prospect: await saveProspect(O),
    vProspectId: (await saveProspect(V)).id,
    brokeragePlanId: plan.id,
  }
}

async function acceptedMember(teamId: number, member: Agent, lead: Agent) {
  return t.db
    .insertInto('reTeamMember')
    .values({
      reTeamId: teamId,
      reAgentId: member.agent.id,
      addedByReAgentId: lead.agent.id,
      invitationStatus: 'accepted',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

function callerOf(role: Role, owner: Agent): Agent | null {
  switch (role) {
    case 'owner':
      return owner
    case 'otherFirm':
      return w.X
    case 'unverified':
      return w.P
    case 'verified':
      return w.V
    case 'teamLead':
      return w.U
    case 'teammate':
      return w.M
    case 'anonymous':
      return null
  }
}

/** The caller's own agent id; the owner's for an anonymous caller (it has none). */
const ownId = (me: Agent | null, owner: Agent) => (me ?? owner).agent.id
/** An agent id that is not the caller's: the owner's, or (for the owner) V's. */
const otherId = (me: Agent | null, owner: Agent) => (me === owner ? w.V : owner).agent.id

// ---------------------------------------------------------------------------------------------------
// Open houses of O in the three states

type OhState = 'unpublished' | 'offered' | 'hosted'
const OH_STATES: readonly OhState[] = ['unpublished', 'offered', 'hosted']
const LEVEL = 'Market Center'

interface Oh {
  id: number
  propertyId: number
}

async function openHouseIn(state: OhState): Promise<Oh> {
  const oh = await scheduleOpenHouse(t, w.O, { publishLevel: LEVEL })
  if (state !== 'unpublished') {
    const res = await publish(t, w.O, oh.id, LEVEL)
    if (res.status !== 200) throw new Error(`publish: ${JSON.stringify(res.body)}`)
  }
  if (state === 'hosted') {
    const res = await send(
      'PATCH',
      `/api/openhousemgmt/claimToHostOpenHouse/${oh.id}/${w.V.agent.id}`,
      w.V.token,
    )
    if (res.status !== 200) throw new Error(`claim: ${JSON.stringify(res.body)}`)
  }
  return { id: oh.id, propertyId: oh.rePropertyId }
}

/** What a call about an open house could change. */
async function openHouseSnapshot(id: number) {
  return {
    openHouse: await t.db.selectFrom('openHouse').selectAll().where('id', '=', id).executeTakeFirst(),
    clones: await t.db.selectFrom('openHouse').select('id').where('clonedFromOpenHouseId', '=', id).execute(),
    attendees: await t.db
      .selectFrom('openHouseAttendee')
      .selectAll()
      .where('openHouseId', '=', id)
      .orderBy('id')
      .execute(),
    prospects: await t.db.selectFrom('prospect').select('id').orderBy('id').execute(),
    guestTokens: await t.db
      .selectFrom('guestToken')
      .select('tokenHash')
      .where('openHouseId', '=', id)
      .execute(),
    mail: await t.db.selectFrom('mail').select('id').orderBy('id').execute(),
  }
}

/** One case per open-house state, each on its own open house of O. */
function openHouseCases(spec: {
  request: (oh: Oh, me: Agent | null, owner: Agent) => Req
  rows: Record<OhState, Row>
  only?: readonly OhState[]
}): Case<unknown>[] {
  return (spec.only ?? OH_STATES).map((state) =>
    kase<Oh>({
      name: `${state} open house`,
      prepare: () => openHouseIn(state),
      request: spec.request,
      expect: spec.rows[state],
      snapshot: (oh) => openHouseSnapshot(oh.id),
    }),
  )
}

// ---------------------------------------------------------------------------------------------------
// Other resources

async function inventoryItem(): Promise<{ id: number; propertyId: number }> {
  const res = await send('POST', '/api/reinventorymgmt/saveREInventory', w.O.token, {
    owningREAgentId: w.O.agent.id,
    rePropertyDTO: propertyFields(),
    reInventoryPropertyStatus: 'Property Created',
  })
  if (res.status !== 201) throw new Error(`inventory: ${JSON.stringify(res.body)}`)
  return { id: res.body.data.id, propertyId: res.body.data.reProperty.id }
}

/** An offered open house of O, a guest who signed in at it, and the feedback the guest gave. */
async function guestFeedback() {
  const oh = await openHouseIn('offered')
  const guest = await send('POST', '/api/public/saveProspect', undefined, {
    ...prospectBody(),
    openHouseId: oh.id,
    clientRequestId: randomUUID(),
  })
  if (guest.status !== 201) throw new Error(`guest: ${JSON.stringify(guest.body)}`)
  const body = {
    openHouseId: oh.id,
    prospectId: guest.body.data.id as number,
    guestToken: guest.body.data.guestToken as string,
    feedbackText: 'Bright kitchen.',
    ...Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, ''])),
  }
  const given = await send('POST', '/api/public/saveOpenHouseFeedback', undefined, body)
  if (given.status !== 201) throw new Error(`feedback: ${JSON.stringify(given.body)}`)
  return { id: given.body.data.id as number, body }
}

/** A fresh agent of the owner's firm (the subject of a firm-membership decision). */
const firmAgent = (firmStatus: 'pending' | 'verified' | 'declined') =>
  makePlannedAgent(t.db, { brokerFirmLicense: w.firm, firstName: 'Quill', firmStatus }, 'Brokerage')

const agentRow = (id: number) =>
  t.db.selectFrom('reAgent').selectAll().where('id', '=', id).executeTakeFirst()
/** An agent's row and every change of its role held. */
const agentAndGrants = async (id: number) => ({
  agent: await agentRow(id),
  grants: await t.db.selectFrom('reAgentRoleGrant').selectAll().where('reAgentId', '=', id).execute(),
})

/** T holds Team Lead (granted by the operator), as the world describes it. */
async function tIsLead() {
  const row = await agentRow(w.T.agent.id)
  if (row?.reAgentRole !== 'Team Lead') {
    const res = await send('POST', `/api/admin/grantFirmRole/${w.T.agent.id}`, ADMIN_TOKEN, {
      reAgentRole: 'Team Lead',
    })
    if (res.status !== 200) throw new Error(`grant T: ${JSON.stringify(res.body)}`)
  }
  return w.T
}
const teamMembers = () =>
  t.db.selectFrom('reTeamMember').selectAll().where('reTeamId', '=', w.teamId).orderBy('id').execute()
const mailIds = () => t.db.selectFrom('mail').select('id').orderBy('id').execute()
/** Every agent's Follow Up Boss key: a call changes at most its own caller's. */
const fubKeys = () => t.db.selectFrom('fubConnector').selectAll().orderBy('reAgentId').execute()

/** An open house of O in `state` with a working seller report link O made. */
async function sellerLinkIn(state: OhState): Promise<Oh & { token: string }> {
  const oh = await openHouseIn(state)
  const res = await send('POST', `/api/openhousemgmt/createSellerReportLink/${oh.id}`, w.O.token)
  if (res.status !== 201) throw new Error(`seller link: ${JSON.stringify(res.body)}`)
  return { ...oh, token: String(res.body.data.url).split('/seller/')[1] as string }
}
const sellerLinks = (openHouseId: number) =>
  t.db
    .selectFrom('sellerReportLink')
    .selectAll()
    .where('openHouseId', '=', openHouseId)
    .orderBy('id')
    .execute()

/** The seller link routes: the listing agent's (or its scheduler's) alone; nobody else learns of them. */
function sellerLinkCases(ok: number, options: { withLink: boolean }): Case<unknown>[] {
  const listingOnly: Row = [ok, 404, 404, 404, 404, 404, 403]
  return OH_STATES.map((state) =>
    kase<Oh>({
      name: `${state} open house${options.withLink ? ' with a link' : ''}`,
      prepare: () => (options.withLink ? sellerLinkIn(state) : openHouseIn(state)),
      request: (oh) => ({ params: { openHouseId: oh.id } }),
      expect: listingOnly,
      snapshot: (oh) => sellerLinks(oh.id),
    }),
  )
}

/** The seller link routes that take a body: the same row, the body given. */
function sellerLinkCasesWith(ok: number, body: unknown): Case<unknown>[] {
  return OH_STATES.map((state) =>
    kase<Oh>({
      name: `${state} open house with a link`,
      prepare: () => sellerLinkIn(state),
      request: (oh) => ({ params: { openHouseId: oh.id }, body }),
      expect: [ok, 404, 404, 404, 404, 404, 403],
      snapshot: (oh) => sellerLinks(oh.id),
    }),
  )
}

/** The unsubscribe token of the seller's mail of one of O's links (only its hash is stored). */
async function sellerUnsubscribeToken(): Promise<string> {
  const link = await sellerLinkIn('hosted')
  const token = randomBytes(24).toString('base64url')
  await t.db
    .insertInto('sellerReportMail')
    .values({
      linkId: (await sellerLinks(link.id)).at(-1)?.id as number,
      openHouseId: link.id,
      mailId: null,
      unsubscribeTokenHash: createHash('sha256').update(token).digest('hex'),
    })
    .execute()
  return token
}

/** An unsubscribe token of a guest mail O sent (only its hash is stored, as the server does). */
async function unsubscribeToken(): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  await t.db
    .insertInto('unsubscribeToken')
    .values({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      reAgentId: w.O.agent.id,
      prospectId: w.prospect.id,
      email: 'matrix-guest@example.com',
    })
    .execute()
  return token
}

/** O's calendar feed token (made on first asking). */
async function calendarToken(): Promise<string> {
  const res = await send('GET', `/api/openhousemgmt/getCalendarFeedUrl/${w.O.agent.id}`, w.O.token)
  if (res.status !== 200) throw new Error(`calendar feed: ${JSON.stringify(res.body)}`)
  return (String(res.body.data.url).split('/calendar/')[1] as string).replace(/\.ics$/, '')
}

// ---------------------------------------------------------------------------------------------------
// The matrix

interface Req {
  params?: Record<string, string | number>
  body?: unknown
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field.
type Answer = { status: number; body: any }

interface Case<C> {
  name: string
  /** Expected statuses, in ROLES order. */
  expect: Row
  /**
   * Builds (or puts back) the resource: once per case, and for a write again after any call that
   * succeeded, so every cell meets the resource as the case describes it.
   */
  prepare(): Promise<C>
  /** Prepare again before every cell (a resource that counts its calls). */
  perCell?: boolean
  /** Who plays the owner; O by default. */
  owner?(c: C): Agent
  request(c: C, me: Agent | null, owner: Agent): Req
  /** For writes: the rows the call may change; unchanged after a refused call. */
  snapshot?(c: C): Promise<unknown>
  /** A call that must succeed, proving the request the cells make is well formed. */
  control?: { status: number; call(c: C): Promise<Answer> }
}

const kase = <C>(c: Case<C>): Case<unknown> => c as Case<unknown>
const none = async () => ({})

/** A webhook endpoint of O's, made directly (its URL is never called: no worker runs here). */
const ownerEndpoint = () =>
  t.db
    .insertInto('webhookEndpoint')
    .values({
      reAgentId: w.O.agent.id,
      url: 'https://hooks.example.com/porchlight',
      events: ['prospect.created'],
      secret: `whsec_${randomBytes(24).toString('base64')}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()

/** An endpoint of T's team, registered by T (its lead): T manages it; its member M does not. */
const teamEndpoint = () =>
  t.db
    .insertInto('webhookEndpoint')
    .values({
      reAgentId: w.T.agent.id,
      teamId: w.teamId,
      url: 'https://hooks.example.com/team',
      events: ['prospect.created'],
      secret: `whsec_${randomBytes(24).toString('base64')}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()

/** A browser's push subscription of O's, made directly (no push is sent: no worker runs here). */
const ownerPushSubscription = () =>
  t.db
    .insertInto('pushSubscription')
    .values({
      reAgentId: w.O.agent.id,
      endpoint: `https://push.example.com/send/${unique()}${unique()}`,
      p256dh: randomBytes(65).toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    })
    .returning('id')
    .executeTakeFirstOrThrow()

const vapidEnv = () => {
  const keys = newVapidKeys()
  return {
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: 'mailto:ops@porchlight.test',
  }
}

/** The notification settings of O's (each caller reads and writes its own). */
const ownerSettings = () =>
  t.db.selectFrom('notificationSetting').selectAll().where('reAgentId', '=', w.O.agent.id).execute()

/** O's push subscriptions (each caller adds its own). */
const ownerSubscriptions = () =>
  t.db
    .selectFrom('pushSubscription')
    .selectAll()
    .where('reAgentId', '=', w.O.agent.id)
    .orderBy('id')
    .execute()

/**
 * A single-use claim capability for M (a verified agent of O's firm on T's team), as an offer's push carries
 * it, for an open house of O's offered to the firm: M's alone, signed in or not (the service worker calls
 * without a session); every other agent is refused, and the capability stays unused.
 */
async function claimCapability(): Promise<Oh & { claimToken: string }> {
  const oh = await openHouseIn('offered')
  const claimToken = randomBytes(32).toString('base64url')
  await t.db
    .insertInto('pushClaimToken')
    .values({
      tokenHash: hashClaimToken(claimToken),
      reAgentId: w.M.agent.id,
      openHouseId: oh.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    })
    .execute()
  return { ...oh, claimToken }
}

/** GET routes whose path agent id is the owner's (O). */
const selfCase = (param: string, extra: Record<string, string | number> = {}) => [
  kase({
    name: "the owner's agent id",
    prepare: none,
    request: (_c, _me, owner) => ({ params: { [param]: owner.agent.id, ...extra } }),
    expect: SELF,
  }),
]

/** A case whose path names an agent that is not the caller (API.md: 403, before anything else). */
const namesAnotherAgent = (request: (oh: Oh, other: number) => Req) =>
  kase<Oh>({
    name: 'path names another agent than the caller',
    prepare: () => openHouseIn('offered'),
    request: (oh, me, owner) => request(oh, otherId(me, owner)),
    expect: ALL_FORBIDDEN,
    snapshot: (oh) => openHouseSnapshot(oh.id),
  })

const matrix: Record<string, Case<unknown>[]> = {
  // ---- accounts ----------------------------------------------------------------------------------
  'GET /api/signing/validateEmailId/:userId/:code': [
    // Public. The owner's account is already enabled: a code never validates it again.
    kase({
      name: "the owner's enabled account, a wrong code",
      prepare: none,
      request: () => ({ params: { userId: w.O.user.id, code: '000000' } }),
      expect: everyone(400),
    }),
  ],
  'GET /api/signing/resendVerificationCode/:userId': [
    // Public; an account counts its resends (5 an hour), so each cell asks for a fresh enabled one.
    kase({
      name: 'an enabled account',
      prepare: () => makeUser(t.db),
      perCell: true,
      request: (user) => ({ params: { userId: user.id } }),
      expect: everyone(200),
    }),
  ],
  'POST /api/signing/confirmEmailChange': [
    // Each caller confirms a change of its own sign-in email: a code waiting for another account is
    // no code for it (400, as a wrong code), and the owner's account keeps its address until it enters it.
    kase({
      name: "the owner's waiting change, with its code",
      prepare: async () => {
        const owner = await makePlannedAgent(t.db)
        await t.db
          .insertInto('emailCode')
          .values({
            userId: owner.user.id,
            purpose: 'change_email',
            codeHash: hashSecret(owner.user.id, CHANGE_CODE),
            newEmail: `moved-${unique()}@example.com`,
            expiresAt: new Date(Date.now() + 15 * 60_000),
          })
          .execute()
        return owner
      },
      owner: (owner) => owner,
      request: () => ({ body: { code: CHANGE_CODE } }),
      expect: [200, 400, 400, 400, 400, 400, 403],
      snapshot: (owner) =>
        t.db.selectFrom('porchlightUser').selectAll().where('id', '=', owner.user.id).executeTakeFirst(),
    }),
  ],
  'PATCH /api/signing/user/:id': [
    kase({
      name: "the owner's user id, with the owner's password",
      prepare: async () => {
        await t.db
          .updateTable('porchlightUser')
          .set({ porchlightUserPass: await hashPassword(OWNER_PASSWORD) })
          .where('id', '=', w.O.user.id)
          .execute()
      },
      request: () => ({
        params: { id: w.O.user.id },
        body: { porchlightUserEmailId: w.O.user.porchlightUserEmailId, currentPassword: OWNER_PASSWORD },
      }),
      expect: SELF,
      snapshot: () =>
        t.db.selectFrom('porchlightUser').selectAll().where('id', '=', w.O.user.id).executeTakeFirst(),
    }),
  ],

  // ---- agents ------------------------------------------------------------------------------------
  'PATCH /api/reagentmgmt/:reAgentId': [
    kase({
      name: "the owner's profile",
      prepare: none,
      request: () => ({
        params: { reAgentId: w.O.agent.id },
        body: validAgentFields(w.O.user.porchlightUserEmailId, {
          reAgentFirstName: 'Olive',
          reAgentBrokerFirmLicense: w.firm,
        }),
      }),
      expect: SELF,
      snapshot: () => agentRow(w.O.agent.id),
    }),
  ],
  'GET /api/reagentmgmt/getREAgentDetails/:reAgentId': [
    // agentView: itself in full, teammates with contact data, verified colleagues by name, nobody else.
    kase({
      name: "the owner's profile",
      prepare: none,
      request: () => ({ params: { reAgentId: w.O.agent.id } }),
      expect: [200, 404, 404, 200, 200, 200, 403],
    }),
  ],
  'GET /api/reagentmgmt/getREAgentsByBrokerFirmLicense/:license': [
    // mayReadRoster: verified members of that firm only.
    kase({
      name: "the owner's firm",
      prepare: none,
      request: () => ({ params: { license: w.firm } }),
      expect: [200, 403, 403, 200, 200, 200, 403],
    }),
  ],
  ...Object.fromEntries(
    ['approveFirmMember', 'declineFirmMember'].map((path) => [
      `POST /api/reagentmgmt/${path}/:reAgentId`,
      [
        // mayDecideFirmMembership: a verified Team Lead / Admin Team Member of the firm, about someone else.
        kase({
          name: 'a pending applicant of the firm (owner: the applicant itself)',
          prepare: () => firmAgent('pending'),
          owner: (q) => q,
          request: (q) => ({ params: { reAgentId: q.agent.id } }),
          expect: [
            403, // the applicant sees itself (agentView 'full') but may not decide on itself
            404,
            // P may not see the applicant (agentView null: neither is verified), so
            // "anything a caller may not see → 404" (API.md Additions); 403 confirms the agent exists.
            404,
            // A pending applicant is not in V's roster and agentView(V, it) is null:
            // it does not exist for V, so 404, as for the other firm's X.
            404,
            200,
            // Same as V: the pending applicant does not exist for M.
            404,
            403,
          ],
          snapshot: (q) => agentRow(q.agent.id),
        }),
        path === 'approveFirmMember'
          ? kase({
              // Approving again an agent the firm declined is said so (currentStatus): the same callers.
              name: 'a declined agent of the firm (owner: that agent)',
              prepare: () => firmAgent('declined'),
              owner: (q) => q,
              request: (q) => ({ params: { reAgentId: q.agent.id }, body: { currentStatus: 'declined' } }),
              expect: [403, 404, 404, 404, 200, 404, 403],
              snapshot: (q) => agentAndGrants(q.agent.id),
            })
          : kase({
              // Declining a verified member is said so (currentStatus).
              name: 'a verified colleague (owner: that colleague)',
              prepare: () => firmAgent('verified'),
              owner: (q) => q,
              request: (q) => ({ params: { reAgentId: q.agent.id }, body: { currentStatus: 'verified' } }),
              expect: [
                403,
                404,
                // P sees no colleague (agentView null while unverified): 404.
                404,
                403, // V sees the colleague by name but may not decide
                200,
                403,
                403,
              ],
              snapshot: (q) => agentAndGrants(q.agent.id),
            }),
        ...(path === 'declineFirmMember'
          ? [
              kase({
                // N1: only another verified Team Lead declines a member holding a granted role; T's
                // teammate M and the plain V, whatever they typed about themselves, may not.
                name: "the firm's Team Lead T (owner: T)",
                prepare: async () => {
                  const row = await agentRow(w.T.agent.id)
                  if (row?.firmMembershipStatus !== 'verified') {
                    await send('POST', `/api/admin/verifyFirmMember/${w.T.agent.id}`, ADMIN_TOKEN)
                  }
                  return tIsLead()
                },
                owner: () => w.T,
                request: () => ({ params: { reAgentId: w.T.agent.id }, body: { currentStatus: 'verified' } }),
                expect: [403, 404, 404, 403, 200, 403, 403],
                snapshot: () => agentAndGrants(w.T.agent.id),
              }),
            ]
          : []),
      ],
    ]),
  ),
  'POST /api/reagentmgmt/requestFirmVerification': [
    // mayAskFirmVerification: an agent not verified, about itself (its own session names it); a
    // verified one has nothing to ask (409). P's last ask is forgotten before each cell (once a day).
    kase({
      name: "the caller's own membership (P pending, everyone else verified)",
      perCell: true,
      prepare: async () => {
        await t.db
          .updateTable('reAgent')
          .set({ firmVerificationRequestedAt: null })
          .where('id', '=', w.P.agent.id)
          .execute()
        return {}
      },
      request: () => ({}),
      expect: [409, 409, 202, 409, 409, 409, 403],
      snapshot: async () =>
        t.db
          .selectFrom('reAgent')
          .select(['id', 'firmVerificationRequestedAt'])
          .where(
            'id',
            'in',
            [w.O, w.T, w.M, w.R, w.V, w.U, w.X].map((a) => a.agent.id),
          )
          .orderBy('id')
          .execute(),
    }),
  ],
  'POST /api/reagentmgmt/grantFirmRole/:reAgentId': [
    // mayGrantFirmRole: a verified Team Lead of the firm, to another verified member of it.
    kase({
      name: 'Admin Team Member for a verified colleague (owner: that colleague)',
      prepare: () => firmAgent('verified'),
      owner: (q) => q,
      request: (q) => ({ params: { reAgentId: q.agent.id }, body: { reAgentRole: 'Admin Team Member' } }),
      expect: [403, 404, 404, 403, 200, 403, 403],
      snapshot: (q) => agentAndGrants(q.agent.id),
    }),
    kase({
      name: "Real Estate Agent for the firm's Team Lead T (owner: T)",
      prepare: tIsLead,
      owner: () => w.T,
      request: () => ({ params: { reAgentId: w.T.agent.id }, body: { reAgentRole: 'Real Estate Agent' } }),
      expect: [403, 404, 404, 403, 200, 403, 403],
      snapshot: () => agentAndGrants(w.T.agent.id),
    }),
  ],

  // ---- pricing -----------------------------------------------------------------------------------
  'GET /api/pricingplanmgmt/getAllOfferedPricingPlans/:reAgentId': [
    kase({
      name: "the owner's agent id (public)",
      prepare: none,
      request: () => ({ params: { reAgentId: w.O.agent.id } }),
      expect: everyone(200),
    }),
  ],
  'PATCH /api/pricingplanmgmt/addPricingPlanToREAgent/:id': [
    // Each caller names itself in the body (a plan for someone else is refused before), and the
    // owner's purchase in the path: another agent's purchase does not exist for it.
    kase({
      name: "the owner's plan purchase",
      prepare: () =>
        t.db
          .selectFrom('pricingPlanPurchase')
          .select('id')
          .where('reAgentId', '=', w.O.agent.id)
          .where('pricingPlanActiveFlag', '=', true)
          .executeTakeFirstOrThrow(),
      request: (purchase, me, owner) => ({
        params: { id: purchase.id },
        body: {
          pricingPlanId: w.brokeragePlanId,
          reAgentId: ownId(me, owner),
          pricingPlanFrequency: 'Monthly',
        },
      }),
      expect: onlyOwner(200),
      snapshot: () =>
        t.db
          .selectFrom('pricingPlanPurchase')
          .selectAll()
          .where('reAgentId', '=', w.O.agent.id)
          .orderBy('id')
          .execute(),
    }),
  ],
  'GET /api/pricingplanmgmt/getPlanUtilization/:reAgentId': selfCase('reAgentId'),
  'GET /api/pricingplanmgmt/getActivePricingPlan/:reAgentId': selfCase('reAgentId'),

  // ---- properties and inventory ------------------------------------------------------------------
  'GET /api/propertymgmt/getREPropertyDetails/:id': openHouseCases({
    // mayViewProperty: its owners, or anyone while it has a published or hosted open house.
    request: (oh) => ({ params: { id: oh.propertyId } }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 200, 200, 200, 200, 200, 403],
      hosted: [200, 200, 200, 200, 200, 200, 403],
    },
  }),
  'GET /api/public/getREPropertyDetails/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.propertyId } }),
    rows: { unpublished: everyone(404), offered: everyone(200), hosted: everyone(200) },
  }),
  'GET /api/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/:agentId': selfCase('agentId'),
  'PATCH /api/reinventorymgmt/saveREInventory/:id': [
    kase({
      name: "the owner's inventory item",
      prepare: inventoryItem,
      request: (item) => ({
        params: { id: item.id },
        body: { reInventoryPropertyStatus: 'Property Created', rePropertyDTO: { propertyCity: 'Roswell' } },
      }),
      expect: onlyOwner(200),
      snapshot: async (item) => ({
        item: await t.db.selectFrom('reInventory').selectAll().where('id', '=', item.id).executeTakeFirst(),
        property: await t.db
          .selectFrom('reProperty')
          .selectAll()
          .where('id', '=', item.propertyId)
          .executeTakeFirst(),
      }),
    }),
  ],
  'GET /api/reinventorymgmt/getREInventoryDetails/:id': [
    kase({
      name: "the owner's inventory item",
      prepare: inventoryItem,
      request: (item) => ({ params: { id: item.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'DELETE /api/reinventorymgmt/deleteREInventory/:id': [
    kase({
      name: "the owner's inventory item",
      prepare: inventoryItem,
      request: (item) => ({ params: { id: item.id } }),
      expect: onlyOwner(200),
      snapshot: (item) =>
        t.db.selectFrom('reInventory').selectAll().where('id', '=', item.id).executeTakeFirst(),
    }),
  ],

  // ---- open houses: 404 to whoever may not view it, 403 to a viewer who may not do this ------------
  'PATCH /api/openhousemgmt/saveOpenHouse/:id': openHouseCases({
    request: (oh) => ({
      params: { id: oh.id },
      body: scheduleFields(oh.propertyId, { publishLevel: LEVEL }),
    }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 403, 403, 403, 403],
    },
  }),
  'PATCH /api/openhousemgmt/updateOpenHouseSchedule/:id': openHouseCases({
    // A fixed schedule: the claim part decides who gets past the door, then 409 (fixed, or claimed).
    request: (oh) => ({
      params: { id: oh.id },
      body: {
        scheduledDate: daysFromNow(4),
        scheduledStartTime: '2:00 PM',
        scheduledEndTime: '4:00 PM',
        openHouseTimezone: 'America/New_York',
      },
    }),
    rows: {
      unpublished: [403, 404, 404, 404, 404, 404, 403],
      offered: [403, 404, 404, 409, 409, 409, 403],
      hosted: [403, 404, 404, 409, 409, 409, 403],
    },
  }),
  'POST /api/openhousemgmt/cancelOpenHouse': openHouseCases({
    request: (oh) => ({
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 403, 403, 403, 403],
    },
  }),
  'GET /api/openhousemgmt/getOpenHouseDetails/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 200, 200, 200, 403],
      hosted: [200, 404, 404, 200, 200, 200, 403],
    },
  }),
  'GET /api/public/getOpenHouseDetails/:id': openHouseCases({
    // The public knows an open house only while it is published or hosted.
    request: (oh) => ({ params: { id: oh.id } }),
    rows: { unpublished: everyone(404), offered: everyone(200), hosted: everyone(200) },
  }),
  'GET /api/openhousemgmt/getMyUpcomingOH/:agentId': selfCase('agentId'),
  'GET /api/openhousemgmt/getMyPastOH/:agentId': selfCase('agentId'),
  'GET /api/openhousemgmt/getAvailableToHostOH/:agentId': selfCase('agentId'),
  'POST /api/openhousemgmt/cloneOpenHouse/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(201),
      offered: [201, 404, 404, 403, 403, 403, 403],
      hosted: [201, 404, 404, 403, 403, 403, 403],
    },
  }),
  // Another day is a copy on the next free date: the same authority as Clone.
  'POST /api/openhousemgmt/addAnotherDay/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(201),
      offered: [201, 404, 404, 403, 403, 403, 403],
      hosted: [201, 404, 404, 403, 403, 403, 403],
    },
  }),
  'PATCH /api/openhousemgmt/claimToHostOpenHouse/:openHouseId/:agentId': [
    // Each caller claims for itself; the listing agent sees its open house but may not claim it.
    ...openHouseCases({
      request: (oh, me, owner) => ({ params: { openHouseId: oh.id, agentId: ownId(me, owner) } }),
      rows: {
        unpublished: [403, 404, 404, 404, 404, 404, 403],
        offered: [403, 404, 404, 200, 200, 200, 403],
        hosted: [403, 404, 404, 409, 409, 409, 403],
      },
    }),
    namesAnotherAgent((oh, other) => ({ params: { openHouseId: oh.id, agentId: other } })),
  ],
  'DELETE /api/openhousemgmt/withdrawToHostOpenHouse/:openHouseId/:agentId': [
    ...openHouseCases({
      request: (oh, me, owner) => ({ params: { openHouseId: oh.id, agentId: ownId(me, owner) } }),
      rows: {
        unpublished: [403, 404, 404, 404, 404, 404, 403],
        offered: [403, 404, 404, 403, 403, 403, 403],
        hosted: [403, 404, 404, 200, 403, 403, 403],
      },
    }),
    namesAnotherAgent((oh, other) => ({ params: { openHouseId: oh.id, agentId: other } })),
  ],
  'POST /api/openhousemgmt/publishOpenHouseOpportunity/:openHouseId/:listingAgentId/:publishLevel':
    openHouseCases({
      // The path names the listing agent (O) whoever calls.
      request: (oh) => ({
        params: { openHouseId: oh.id, listingAgentId: w.O.agent.id, publishLevel: LEVEL },
      }),
      rows: {
        unpublished: onlyOwner(200),
        offered: [200, 404, 404, 403, 403, 403, 403],
        hosted: [409, 404, 404, 403, 403, 403, 403],
      },
    }),
  'GET /api/openhousemgmt/calendar/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 200, 403, 403, 403],
    },
  }),
  'GET /api/openhousemgmt/getDoorSignPdf/:openHouseId': openHouseCases({
    // printDoorSign: the listing agent (or its scheduler) and the host; before guests can sign in
    // (unpublished, nobody hosting) the sign would print a dead code: 409.
    request: (oh) => ({ params: { openHouseId: oh.id } }),
    rows: {
      unpublished: [409, 404, 404, 404, 404, 404, 403],
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 200, 403, 403, 403],
    },
  }),

  // ---- attendees and prospects -------------------------------------------------------------------
  'GET /api/public/getOpenHouseAttendees/:openHouseId': openHouseCases({
    request: (oh) => ({ params: { openHouseId: oh.id } }),
    rows: { unpublished: everyone(404), offered: everyone(200), hosted: everyone(200) },
  }),
  'POST /api/openhousemgmt/AddAttendee': openHouseCases({
    // Only the host manages attendees; V adds its own prospect, anyone else names O's.
    request: (oh, me) => ({
      body: { openHouseId: oh.id, prospectId: me === w.V ? w.vProspectId : w.prospect.id },
    }),
    rows: {
      unpublished: [403, 404, 404, 404, 404, 404, 403],
      offered: [403, 404, 404, 403, 403, 403, 403],
      hosted: [403, 404, 404, 201, 403, 403, 403],
    },
  }),
  'POST /api/public/saveProspect': openHouseCases({
    // The guest sign-in: public, while the open house is on show.
    request: (oh) => ({ body: { ...prospectBody(), openHouseId: oh.id, clientRequestId: randomUUID() } }),
    rows: { unpublished: everyone(404), offered: everyone(201), hosted: everyone(201) },
  }),
  'POST /api/prospectmgmt/saveProspect': openHouseCases({
    // With openHouseId the prospect is also recorded as an attendee: the host's to do.
    request: (oh) => ({ body: { ...prospectBody(), openHouseId: oh.id } }),
    rows: {
      unpublished: [403, 404, 404, 404, 404, 404, 403],
      offered: [403, 404, 404, 403, 403, 403, 403],
      hosted: [403, 404, 404, 201, 403, 403, 403],
    },
  }),
  'PATCH /api/prospectmgmt/saveProspect/:id': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { id: w.prospect.id }, body: prospectBody(w.prospect.email) }),
      expect: onlyOwner(200),
      snapshot: () =>
        t.db.selectFrom('prospect').selectAll().where('id', '=', w.prospect.id).executeTakeFirst(),
    }),
  ],
  'GET /api/prospectmgmt/getProspectsByREAgentId/:agentId': selfCase('agentId'),
  'GET /api/prospectmgmt/getProspectsByOpenHouseId/:id': openHouseCases({
    // viewAttendees: the listing agent (or its scheduler) and the host.
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 200, 403, 403, 403],
    },
  }),
  'GET /api/prospectmgmt/getProspectsByREAgentIdNotInOH/:agentId/:openHouseId': [
    ...openHouseCases({
      request: (oh, me, owner) => ({ params: { agentId: ownId(me, owner), openHouseId: oh.id } }),
      rows: {
        unpublished: onlyOwner(200),
        offered: [200, 404, 404, 403, 403, 403, 403],
        hosted: [200, 404, 404, 200, 403, 403, 403],
      },
    }),
    namesAnotherAgent((oh, other) => ({ params: { agentId: other, openHouseId: oh.id } })),
  ],
  'GET /api/prospectmgmt/getProspectDetails/:id': [
    // prospectView: the agent whose lead it is (or a listing/hosting agent it visited): nobody else.
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { id: w.prospect.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'GET /api/prospectmgmt/export/:agentId.csv': selfCase('agentId'),
  'GET /api/prospectmgmt/getProspectOpenHouses/:agentId': selfCase('agentId'),
  // The owner's stage, follow-up date and notes: to anyone else they do not exist (mayKeepProspect).
  'PATCH /api/prospectmgmt/updateProspectFollowUp/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id }, body: { prospectStage: 'Contacted' } }),
      expect: onlyOwner(200),
      snapshot: () =>
        t.db.selectFrom('prospect').selectAll().where('id', '=', w.prospect.id).executeTakeFirst(),
    }),
  ],
  // The answers to the open houses' own questions: whoever may see the prospect (prospectView).
  'GET /api/prospectmgmt/getProspectCustomAnswers/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'GET /api/prospectmgmt/getProspectNotes/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'POST /api/prospectmgmt/addProspectNote/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id }, body: { noteText: 'Called back.' } }),
      expect: onlyOwner(201),
      snapshot: () =>
        t.db.selectFrom('prospectNote').selectAll().where('prospectId', '=', w.prospect.id).execute(),
    }),
  ],

  // ---- feedback ----------------------------------------------------------------------------------
  'PATCH /api/feedback/saveOpenHouseFeedback/:id': [
    // Only the guest's token proves the feedback is the caller's: nobody here has it (every caller
    // sends a well-formed token of its own), so the feedback does not exist for any of them.
    kase({
      name: "a guest's feedback, without the guest's token",
      prepare: guestFeedback,
      request: (f) => ({
        params: { id: f.id },
        body: { ...f.body, guestToken: randomBytes(32).toString('base64url'), feedbackText: 'Forged.' },
      }),
      expect: everyone(404),
      snapshot: (f) =>
        t.db.selectFrom('openHouseFeedback').selectAll().where('id', '=', f.id).executeTakeFirst(),
      control: {
        status: 200,
        call: (f) =>
          send('PATCH', `/api/feedback/saveOpenHouseFeedback/${f.id}`, undefined, {
            ...f.body,
            feedbackText: 'Edited by the guest.',
          }),
      },
    }),
  ],
  'GET /api/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: onlyOwner(200),
      offered: [200, 404, 404, 403, 403, 403, 403],
      hosted: [200, 404, 404, 200, 403, 403, 403],
    },
  }),
  'GET /api/feedback/getREAgentFeedbackSummaryByREAgentId/:agentId': selfCase('agentId'),

  // ---- reports -----------------------------------------------------------------------------------
  'POST /api/openhousemgmt/sendOpenHouseHostingReport/:id': openHouseCases({
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: [403, 404, 404, 404, 404, 404, 403],
      offered: [403, 404, 404, 403, 403, 403, 403],
      hosted: [403, 404, 404, 202, 403, 403, 403],
    },
  }),
  'POST /api/openhousemgmt/requestOpenHouseHostingReport/:id': openHouseCases({
    // The listing agent's; 409 while nobody else hosts.
    request: (oh) => ({ params: { id: oh.id } }),
    rows: {
      unpublished: [409, 404, 404, 404, 404, 404, 403],
      offered: [409, 404, 404, 403, 403, 403, 403],
      hosted: [202, 404, 404, 403, 403, 403, 403],
    },
  }),
  'POST /api/openhousemgmt/sendOpenHouseAttendeeReport/:openHouseId/:hostId': [
    ...openHouseCases({
      request: (oh, me, owner) => ({ params: { openHouseId: oh.id, hostId: ownId(me, owner) } }),
      rows: {
        unpublished: [403, 404, 404, 404, 404, 404, 403],
        offered: [403, 404, 404, 403, 403, 403, 403],
        hosted: [403, 404, 404, 202, 403, 403, 403],
      },
    }),
    namesAnotherAgent((oh, other) => ({ params: { openHouseId: oh.id, hostId: other } })),
  ],

  // ---- seller report and calendar feed (issue 14) ----------------------------------------------
  // shareSellerReport: the listing agent or its scheduler; to anyone else, even one who sees the open
  // house (V on offer, V hosting), the seller's link is not there to know of: 404.
  'POST /api/openhousemgmt/createSellerReportLink/:openHouseId': sellerLinkCases(201, { withLink: false }),
  'DELETE /api/openhousemgmt/revokeSellerReportLink/:openHouseId': sellerLinkCases(200, { withLink: true }),
  'GET /api/openhousemgmt/getSellerReportLink/:openHouseId': sellerLinkCases(200, { withLink: true }),
  // informSeller: the seller's address is the listing agent's alone (its scheduler is refused 403 by the
  // policy's table, shared/src/rules/policy.test.ts); to the rest the link is not there to know of: 404.
  'POST /api/openhousemgmt/setSellerReportEmail/:openHouseId': sellerLinkCasesWith(200, {
    sellerEmail: 'matrix-seller@example.com',
  }),
  // The seller's one-click unsubscribe: the token is the whole authority.
  'GET /api/public/unsubscribeSeller/:token': [
    kase<string>({
      name: "a token of the seller's mail of O's link",
      prepare: sellerUnsubscribeToken,
      request: (token) => ({ params: { token } }),
      expect: everyone(200),
    }),
    kase({
      name: 'a token never given',
      prepare: none,
      request: () => ({ params: { token: 'x'.repeat(32) } }),
      expect: everyone(404),
    }),
  ],
  'POST /api/public/unsubscribeSeller/:token': [
    kase<string>({
      name: "a token of the seller's mail of O's link",
      prepare: sellerUnsubscribeToken,
      request: (token) => ({ params: { token }, body: { 'List-Unsubscribe': 'One-Click' } }),
      expect: everyone(200),
      snapshot: () =>
        t.db.selectFrom('sellerReportLink').select(['id', 'sellerUnsubscribedAt']).orderBy('id').execute(),
    }),
  ],
  'GET /api/public/getSellerReport/:token': [
    // The token is the whole authority: the same answer for everyone, token of ours or not.
    kase<{ token: string }>({
      name: 'a working link',
      prepare: () => sellerLinkIn('hosted'),
      request: (link) => ({ params: { token: link.token } }),
      expect: everyone(200),
    }),
    kase<{ token: string }>({
      name: 'a revoked link',
      prepare: async () => {
        const link = await sellerLinkIn('offered')
        await send('DELETE', `/api/openhousemgmt/revokeSellerReportLink/${link.id}`, w.O.token)
        return link
      },
      request: (link) => ({ params: { token: link.token } }),
      expect: everyone(404),
    }),
  ],
  'GET /api/openhousemgmt/getCalendarFeedUrl/:agentId': selfCase('agentId'),
  'DELETE /api/openhousemgmt/revokeCalendarFeed/:agentId': [
    kase({
      name: "the owner's feed",
      prepare: calendarToken,
      request: (_c, _me, owner) => ({ params: { agentId: owner.agent.id } }),
      expect: SELF,
      snapshot: () =>
        t.db.selectFrom('calendarFeed').selectAll().where('reAgentId', '=', w.O.agent.id).execute(),
    }),
  ],
  'GET /api/public/calendar/:token.ics': [
    kase<string>({
      name: "the owner's feed",
      prepare: calendarToken,
      request: (token) => ({ params: { token } }),
      expect: everyone(200),
    }),
  ],

  // ---- guest consent and vCards (issue 14) ------------------------------------------------------
  // The unsubscribe link's token is the whole authority: the page and the one-click POST answer anyone
  // holding it (a mail client, a person); a repeated POST changes nothing and answers the same.
  'GET /api/public/unsubscribe/:token': [
    kase<string>({
      name: "a token of O's guest mail",
      prepare: unsubscribeToken,
      request: (token) => ({ params: { token } }),
      expect: everyone(200),
    }),
    kase({
      name: 'a token never given',
      prepare: none,
      request: () => ({ params: { token: 'x'.repeat(32) } }),
      expect: everyone(404),
    }),
  ],
  'POST /api/public/unsubscribe/:token': [
    kase<string>({
      name: "a token of O's guest mail",
      prepare: unsubscribeToken,
      request: (token) => ({ params: { token }, body: { 'List-Unsubscribe': 'One-Click' } }),
      expect: everyone(200),
      snapshot: () =>
        t.db.selectFrom('consentEvent').selectAll().where('reAgentId', '=', w.O.agent.id).execute(),
    }),
  ],
  // The consent history and the vCard are the owner's (mayKeepProspect): 404 to everyone else.
  'GET /api/prospectmgmt/getProspectConsents/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'POST /api/prospectmgmt/optOutProspectEmail/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id } }),
      expect: onlyOwner(200),
      snapshot: () =>
        t.db.selectFrom('consentEvent').selectAll().where('prospectId', '=', w.prospect.id).execute(),
    }),
  ],
  'GET /api/prospectmgmt/getProspectVCard/:prospectId': [
    kase({
      name: "the owner's prospect",
      prepare: none,
      request: () => ({ params: { prospectId: w.prospect.id } }),
      expect: onlyOwner(200),
    }),
  ],
  'GET /api/prospectmgmt/exportVCards/:agentId': selfCase('agentId'),

  // ---- teams: the owner is T, the team's lead; M (and O) accepted members ---------------------------
  'PATCH /api/reteammgmt/saveRETeam/:reTeamId': [
    kase({
      name: "T's team",
      prepare: none,
      owner: () => w.T,
      request: () => ({
        params: { reTeamId: w.teamId },
        body: { reTeamName: 'Porch Crew', teamType: 'Real Estate Team' },
      }),
      expect: [200, 404, 404, 404, 404, 403, 403],
      snapshot: () => t.db.selectFrom('reTeam').selectAll().where('id', '=', w.teamId).executeTakeFirst(),
    }),
  ],
  'GET /api/reteammgmt/getRETeamsByREAgentId/:agentId': selfCase('agentId'),
  'GET /api/reteammgmt/getRETeamByREAgentIdATeamType/:agentId/:teamType': selfCase('agentId', {
    teamType: 'Real Estate Team',
  }),
  'GET /api/reteammgmt/getRETeamDetails/:id': [
    kase({
      name: "T's team",
      prepare: none,
      owner: () => w.T,
      request: () => ({ params: { id: w.teamId } }),
      expect: [200, 404, 404, 404, 404, 200, 403],
    }),
  ],
  'POST /api/reteammgmt/addMemberToRETeam': [
    kase({
      name: "T's team, inviting V",
      // V's invitation is taken back before every case and after T's successful call.
      prepare: async () => {
        await t.db
          .deleteFrom('reTeamMember')
          .where('reTeamId', '=', w.teamId)
          .where('reAgentId', '=', w.V.agent.id)
          .execute()
        return {}
      },
      owner: () => w.T,
      request: () => ({ body: { reTeamId: w.teamId, reAgentId: w.V.agent.id } }),
      expect: [201, 404, 404, 404, 404, 403, 403],
      snapshot: async () => ({ members: await teamMembers(), mail: await mailIds() }),
    }),
  ],
  'GET /api/reteammgmt/getRETeamMembersByRETeamId/:teamId': [
    kase({
      name: "T's team",
      prepare: none,
      owner: () => w.T,
      request: () => ({ params: { teamId: w.teamId } }),
      expect: [200, 404, 404, 404, 404, 200, 403],
    }),
  ],
  'POST /api/reteammgmt/acceptTeamInvitation/:reTeamId': [
    // The lead sees its team but has no invitation; M's was answered already (409).
    kase({
      name: "T's team",
      prepare: none,
      owner: () => w.T,
      request: () => ({ params: { reTeamId: w.teamId } }),
      expect: [403, 404, 404, 404, 404, 409, 403],
      snapshot: teamMembers,
    }),
  ],
  'POST /api/reteammgmt/declineTeamInvitation/:reTeamId': [
    // A member may leave (M's success is undone before the next cell).
    kase({
      name: "T's team",
      prepare: async () => {
        await t.db
          .updateTable('reTeamMember')
          .set({ invitationStatus: 'accepted' })
          .where('reTeamId', '=', w.teamId)
          .where('reAgentId', '=', w.M.agent.id)
          .execute()
        return {}
      },
      owner: () => w.T,
      request: () => ({ params: { reTeamId: w.teamId } }),
      expect: [403, 404, 404, 404, 404, 200, 403],
      snapshot: teamMembers,
    }),
  ],
  'DELETE /api/reteammgmt/removeMemberFromRETeam/:reTeamMemberId': [
    kase({
      name: "R's membership of T's team",
      prepare: async () => {
        const row = await t.db
          .selectFrom('reTeamMember')
          .select('id')
          .where('reTeamId', '=', w.teamId)
          .where('reAgentId', '=', w.R.agent.id)
          .executeTakeFirst()
        return row ?? (await acceptedMember(w.teamId, w.R, w.T))
      },
      owner: () => w.T,
      request: (member) => ({ params: { reTeamMemberId: member.id } }),
      expect: [200, 404, 404, 404, 404, 403, 403],
      snapshot: teamMembers,
    }),
  ],

  // ---- statistics --------------------------------------------------------------------------------
  'GET /api/openhousemgmt/getOHStatisticsSummaryByREAgentId/:agentId': selfCase('agentId'),
  'GET /api/openhousemgmt/getDashboardStatistics/:agentId': selfCase('agentId'),
  'GET /api/openhousemgmt/getDashboardOverview/:agentId': selfCase('agentId'),
  'GET /api/openhousemgmt/getOHStatisticsSummaryByPublishLevelId/:publishLevelId': [
    kase({
      name: "the owner's firm (Market Center)",
      prepare: none,
      request: () => ({ params: { publishLevelId: w.firm } }),
      expect: [200, 404, 404, 200, 200, 200, 403],
    }),
    kase({
      name: "T's team (owner: T)",
      prepare: none,
      owner: () => w.T,
      request: () => ({ params: { publishLevelId: w.teamId } }),
      expect: [200, 404, 404, 404, 404, 200, 403],
    }),
  ],
  ...Object.fromEntries(
    [
      '/api/openhousemgmt/getOHStatisticsSummaryByTeamMembers/:teamId',
      '/api/reteammgmt/getRETeamMemberSummary/:teamId',
      '/api/reteammgmt/getRETeamSummary/:teamId',
    ].map((url) => [
      `GET ${url}`,
      [
        kase({
          name: "T's team",
          prepare: none,
          owner: () => w.T,
          request: () => ({ params: { teamId: w.teamId } }),
          expect: [200, 404, 404, 404, 404, 200, 403],
        }),
      ],
    ]),
  ),

  // ---- webhooks: an agent's endpoints and their delivery logs are its own (404 to anyone else) -------
  'GET /api/webhookmgmt/getWebhookEndpointsByREAgentId/:agentId': selfCase('agentId'),
  'GET /api/webhookmgmt/getWebhookDeliveries/:endpointId': [
    kase({
      name: "the owner's endpoint",
      prepare: ownerEndpoint,
      request: (e) => ({ params: { endpointId: e.id } }),
      expect: onlyOwner(200),
    }),
    kase({
      name: "T's team endpoint",
      prepare: teamEndpoint,
      owner: () => w.T,
      request: (e) => ({ params: { endpointId: e.id } }),
      expect: onlyOwner(200),
    }),
  ],
  // A team endpoint is registered by the team's lead (or co-lead) alone: a member, a lead of no team with
  // it, anyone else is refused before anything is stored.
  'POST /api/webhookmgmt/saveWebhookEndpoint': [
    kase({
      name: "an endpoint for T's team",
      prepare: none,
      owner: () => w.T,
      request: () => ({
        body: { url: 'https://93.184.215.14/team', events: ['prospect.created'], teamId: w.teamId },
      }),
      expect: [201, 403, 403, 403, 403, 403, 403],
      snapshot: () =>
        t.db.selectFrom('webhookEndpoint').select('id').where('teamId', '=', w.teamId).execute(),
    }),
  ],
  'POST /api/webhookmgmt/sendWebhookTestEvent/:endpointId': [
    kase({
      name: "the owner's endpoint",
      prepare: ownerEndpoint,
      request: (e) => ({ params: { endpointId: e.id } }),
      expect: onlyOwner(202),
      snapshot: (e) =>
        t.db.selectFrom('webhookDelivery').selectAll().where('endpointId', '=', e.id).execute(),
    }),
  ],
  'POST /api/webhookmgmt/replayWebhookDelivery/:deliveryId': [
    kase({
      name: "a failed delivery of the owner's endpoint",
      prepare: async () => {
        const endpoint = await ownerEndpoint()
        return t.db
          .insertInto('webhookDelivery')
          .values({
            endpointId: endpoint.id,
            messageId: `msg_${unique()}${unique()}`,
            eventType: 'prospect.created',
            payload: JSON.stringify({ type: 'prospect.created', data: {} }),
            status: 'failed',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      },
      request: (d) => ({ params: { deliveryId: d.id } }),
      expect: onlyOwner(202),
      snapshot: (d) => t.db.selectFrom('webhookDelivery').selectAll().where('id', '=', d.id).execute(),
    }),
  ],
  'DELETE /api/webhookmgmt/deleteWebhookEndpoint/:endpointId': [
    kase({
      name: "the owner's endpoint",
      prepare: ownerEndpoint,
      request: (e) => ({ params: { endpointId: e.id } }),
      expect: onlyOwner(200),
      snapshot: (e) => t.db.selectFrom('webhookEndpoint').selectAll().where('id', '=', e.id).execute(),
    }),
    kase({
      name: "T's team endpoint",
      prepare: teamEndpoint,
      owner: () => w.T,
      request: (e) => ({ params: { endpointId: e.id } }),
      expect: onlyOwner(200),
      snapshot: (e) => t.db.selectFrom('webhookEndpoint').selectAll().where('id', '=', e.id).execute(),
    }),
  ],

  // The Follow Up Boss key: no id anywhere, always the caller's own; nobody reaches another's.
  'GET /api/webhookmgmt/getFubConnector': [
    kase({
      name: "the caller's own connector",
      prepare: none,
      request: () => ({}),
      expect: [200, 200, 200, 200, 200, 200, 403],
    }),
  ],
  'POST /api/webhookmgmt/saveFubConnector': [
    kase({
      name: "the caller's own key",
      prepare: none,
      request: () => ({ body: { apiKey: `fub-key-${unique()}` } }),
      expect: [200, 200, 200, 200, 200, 200, 403],
      snapshot: fubKeys,
    }),
  ],
  'DELETE /api/webhookmgmt/deleteFubConnector': [
    kase({
      name: "the caller's own key",
      prepare: none,
      request: () => ({}),
      expect: [200, 200, 200, 200, 200, 200, 403],
      snapshot: fubKeys,
    }),
  ],
  // Retry sends the caller's own waiting leads: O's wait for O alone; a caller without a key has none.
  'POST /api/webhookmgmt/retryFubConnector': [
    kase({
      name: "the caller's own waiting leads",
      prepare: async () => {
        await t.db.deleteFrom('fubConnector').where('reAgentId', '<>', w.O.agent.id).execute()
        await t.app.deps.webhookRepo.saveFub(w.O.agent.id, `fub-key-${unique()}`)
        await t.db
          .insertInto('fubDelivery')
          .values({
            reAgentId: w.O.agent.id,
            event: JSON.stringify({ type: 'Visited Open House' }),
            status: 'failed',
          })
          .execute()
        return {}
      },
      request: () => ({}),
      expect: [202, 409, 409, 409, 409, 409, 403],
      snapshot: () =>
        t.db
          .selectFrom('fubDelivery')
          .selectAll()
          .where('reAgentId', '=', w.O.agent.id)
          .orderBy('id')
          .execute(),
    }),
  ],

  // ---- Web Push: an agent's browsers' subscriptions are its own (404 to anyone else) ---------------
  // Lists and settings take no id: each caller is answered its own (O's subscription is O's alone).
  'GET /api/notificationmgmt/getPushSubscriptions': [
    kase({
      name: "the caller's own subscriptions",
      prepare: ownerPushSubscription,
      request: () => ({}),
      expect: [200, 200, 200, 200, 200, 200, 403],
    }),
  ],
  'GET /api/notificationmgmt/notificationSettings': [
    kase({
      name: "the caller's own notification settings",
      prepare: none,
      request: () => ({}),
      expect: [200, 200, 200, 200, 200, 200, 403],
    }),
  ],
  'POST /api/notificationmgmt/notificationSettings': [
    kase({
      name: "the caller's own notification settings",
      prepare: none,
      request: () => ({
        body: { events: ['offer.team', 'claim.won'], quietHours: null, timeZone: 'America/Chicago' },
      }),
      expect: [200, 200, 200, 200, 200, 200, 403],
      snapshot: ownerSettings,
    }),
  ],
  'POST /api/notificationmgmt/savePushSubscription': [
    kase({
      name: "a browser of the caller's own",
      prepare: none,
      request: () => ({
        body: {
          endpoint: `http://127.0.0.1:9/push/${unique()}`,
          keys: {
            p256dh: randomBytes(65).toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
        },
      }),
      expect: [201, 201, 201, 201, 201, 201, 403],
      snapshot: ownerSubscriptions,
    }),
  ],
  'GET /api/public/pushPublicKey': [
    kase({ name: 'the VAPID public key', prepare: none, request: () => ({}), expect: everyone(200) }),
  ],
  'POST /api/public/claimFromNotification': [
    kase({
      name: "M's capability for an open house of O's offered to the firm",
      prepare: claimCapability,
      perCell: true,
      owner: () => w.M,
      request: (c) => ({ body: { claimToken: c.claimToken } }),
      // The teammate column is M itself, its own capability.
      expect: [200, 403, 403, 403, 403, 200, 200],
      snapshot: async (c) => ({
        openHouse: await openHouseSnapshot(c.id),
        capability: await t.db
          .selectFrom('pushClaimToken')
          .selectAll()
          .where('tokenHash', '=', hashClaimToken(c.claimToken))
          .execute(),
      }),
    }),
  ],
  'DELETE /api/notificationmgmt/deletePushSubscription/:id': [
    kase({
      name: "the owner's subscription",
      prepare: ownerPushSubscription,
      request: (s) => ({ params: { id: s.id } }),
      expect: onlyOwner(200),
      snapshot: (s) => t.db.selectFrom('pushSubscription').selectAll().where('id', '=', s.id).execute(),
    }),
  ],

  // ---- operator ----------------------------------------------------------------------------------
  'POST /api/admin/grantFirmRole/:reAgentId': [
    kase({
      name: 'Team Lead for the verified V',
      prepare: none,
      owner: () => w.V,
      request: () => ({ params: { reAgentId: w.V.agent.id }, body: { reAgentRole: 'Team Lead' } }),
      expect: everyone(404),
      snapshot: () => agentAndGrants(w.V.agent.id),
      control: {
        status: 200,
        call: async () => {
          const colleague = await firmAgent('verified')
          return send('POST', `/api/admin/grantFirmRole/${colleague.agent.id}`, ADMIN_TOKEN, {
            reAgentRole: 'Team Lead',
          })
        },
      },
    }),
  ],
  'GET /api/admin/firmVerificationRequests': [
    // Only `Authorization: Bearer <ADMIN_TOKEN>`: the operator's list of agents asking to be verified.
    kase({
      name: 'the pending agents asking to be verified',
      prepare: none,
      request: () => ({}),
      expect: everyone(404),
      control: {
        status: 200,
        call: async () => send('GET', '/api/admin/firmVerificationRequests', ADMIN_TOKEN),
      },
    }),
  ],
  'POST /api/admin/verifyFirmMember/:reAgentId': [
    // Only `Authorization: Bearer <ADMIN_TOKEN>`; anyone else meets a route that does not exist.
    kase({
      name: 'the pending agent P',
      prepare: none,
      owner: () => w.P,
      request: () => ({ params: { reAgentId: w.P.agent.id } }),
      expect: everyone(404),
      snapshot: () => agentRow(w.P.agent.id),
      control: {
        status: 200,
        call: async () => {
          const applicant = await firmAgent('pending')
          return send('POST', `/api/admin/verifyFirmMember/${applicant.agent.id}`, ADMIN_TOKEN)
        },
      },
    }),
  ],
}

// ---------------------------------------------------------------------------------------------------
// Running it

async function send(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const json = res.headers.get('content-type')?.includes('application/json') && text !== ''
  return { status: res.status, body: json ? JSON.parse(text) : text }
}

/** The route's own url with its parameters filled in, so a cell cannot miss its route. */
function pathOf(url: string, params: Record<string, string | number>): string {
  const path = url.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${url}: no value for :${name}`)
    return encodeURIComponent(String(value))
  })
  const unused = Object.keys(params).filter((name) => !url.includes(`:${name}`))
  if (unused.length) throw new Error(`${url}: no parameter ${unused.join(', ')}`)
  return path
}

function problemWith(role: Role, expected: number, res: Answer): string | null {
  const error = typeof res.body === 'object' && res.body !== null ? res.body.error : undefined
  if (res.status !== expected) {
    const why = error ? ` ${error.code} (${error.message})` : ''
    return `expected ${expected}, got ${res.status}${why}`
  }
  if (res.status === 404 && String(error?.message ?? '').startsWith('No route for')) {
    return 'the request reached no route: fix the matrix'
  }
  if (res.status === 403) {
    const wanted = role === 'anonymous' ? 'SESSION_EXPIRED' : 'FORBIDDEN'
    if (error?.code !== wanted) return `403 ${error?.code}, expected code ${wanted}`
  }
  return null
}

/** What the caller's authority rests on: nothing it does to itself may move it. */
async function standingOf(me: Agent) {
  return {
    agent: await t.db
      .selectFrom('reAgent')
      .select([
        'reAgentRole',
        'reAgentBrokerFirmLicense',
        'reAgentBrokerFirmName',
        'firmMembershipStatus',
        'reAgentEmailId',
        'reAgentLicenseNumber',
        'reAgentLicenseValidityFlag',
      ])
      .where('id', '=', me.agent.id)
      .executeTakeFirst(),
    teams: await t.db
      .selectFrom('reTeamMember')
      .select(['reTeamId', 'invitationStatus', 'reAgentCurrentFlag'])
      .where('reAgentId', '=', me.agent.id)
      .orderBy('id')
      .execute(),
    ledTeams: await t.db
      .selectFrom('reTeam')
      .select('id')
      .where((eb) => eb.or([eb('reTeamLeadId', '=', me.agent.id), eb('reCoTeamLeadId', '=', me.agent.id)]))
      .orderBy('id')
      .execute(),
    grants: await t.db
      .selectFrom('reAgentRoleGrant')
      .select('id')
      .where('reAgentId', '=', me.agent.id)
      .execute(),
  }
}

/**
 * The sequence step: the caller edits everything it may edit about itself, as the audit's attacker did
 * (its profile typed as a Team Lead of the owner's firm with the owner's email, a request to join T's
 * team, an invitation accepted, a role granted to itself, its own membership approved). Answers a
 * problem if its standing moved, or if its own profile save was refused (the attack must be real).
 */
async function editItself(me: Agent, owner: Agent): Promise<string | null> {
  const before = await standingOf(me)
  const row = await agentRow(me.agent.id)
  if (!row) return 'the caller has no agent row'
  const profile = await send('PATCH', `/api/reagentmgmt/${me.agent.id}`, me.token, {
    reAgentFirstName: row.reAgentFirstName,
    reAgentLastName: row.reAgentLastName,
    reAgentPhoneCountryCode: row.reAgentPhoneCountryCode,
    reAgentPhoneNumber: row.reAgentPhoneNumber,
    reAgentResidenceZipCode: row.reAgentResidenceZipCode,
    reAgentLicenseValidityFlag: 'true',
    reAgentRole: 'Team Lead',
    requestedRole: 'Team Lead',
    reAgentBrokerFirmName: 'Takeover Realty',
    reAgentBrokerFirmLicense: w.firm,
    reAgentLicensedState: 'Georgia',
    reAgentLicenseNumber: `GA-TYPED-${unique()}`,
    reAgentEmailId: owner.user.porchlightUserEmailId,
    reAgentTeamId: w.teamId,
    reAgentPartneredTeamId: w.teamId,
  })
  await send('POST', '/api/reteammgmt/addMemberToRETeam', me.token, {
    reTeamId: w.teamId,
    reAgentId: me.agent.id,
  })
  await send('POST', `/api/reteammgmt/acceptTeamInvitation/${w.teamId}`, me.token)
  await send('POST', `/api/reagentmgmt/grantFirmRole/${me.agent.id}`, me.token, { reAgentRole: 'Team Lead' })
  await send('POST', `/api/reagentmgmt/approveFirmMember/${me.agent.id}`, me.token, {
    currentStatus: 'pending',
  })
  const after = await standingOf(me)
  if (!isDeepStrictEqual(before, after)) {
    return `editing itself moved its standing: ${JSON.stringify(before)} → ${JSON.stringify(after)}`
  }
  if (profile.status !== 200) return `its own profile save answered ${profile.status}`
  return null
}

async function runEntry(key: string, cases: Case<unknown>[]): Promise<string[]> {
  const [method = '', url = ''] = key.split(' ')
  const writes = method !== 'GET'
  const problems: string[] = []
  for (const k of cases) {
    let c = await k.prepare()
    for (const role of RUN_ORDER) {
      if (k.perCell) c = await k.prepare()
      const owner = k.owner?.(c) ?? w.O
      const me = callerOf(role, owner)
      if (me) {
        const moved = await editItself(me, owner)
        if (moved) problems.push(`${k.name} · ${role}: ${moved}`)
      }
      const req = k.request(c, me, owner)
      const before = writes && k.snapshot ? await k.snapshot(c) : undefined
      const res = await send(method, pathOf(url, req.params ?? {}), me?.token, req.body)
      const expected = k.expect[ROLES.indexOf(role)] as number
      const problem = problemWith(role, expected, res)
      if (problem) problems.push(`${k.name} · ${role}: ${problem}`)
      if (writes && k.snapshot && res.status >= 400) {
        const after = await k.snapshot(c)
        if (!isDeepStrictEqual(before, after)) {
          problems.push(`${k.name} · ${role}: refused with ${res.status}, yet the database changed`)
        }
      }
      // A write that went through may have changed the resource: the next cell gets it as described.
      if (writes && res.status < 400) c = await k.prepare()
    }
    if (k.control) {
      const res = await k.control.call(c)
      if (res.status !== k.control.status) {
        problems.push(`${k.name} · control: expected ${k.control.status}, got ${res.status}`)
      }
    }
  }
  return problems
}

describe('authorization matrix', () => {
  it('has an entry for every route that takes an id, and none for a route that does not exist', () => {
    const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`))
    const withId = [...routes].filter((key) => key.includes(':'))
    expect(withId.length).toBeGreaterThan(0)
    expect(withId.filter((key) => !(key in matrix))).toEqual([])
    expect(Object.keys(matrix).filter((key) => !routes.has(key))).toEqual([])
    // Every write says which rows it could change, so a refusal is checked to change none.
    const unguarded = Object.entries(matrix).flatMap(([key, cases]) =>
      key.startsWith('GET ') ? [] : cases.filter((k) => !k.snapshot).map((k) => `${key} · ${k.name}`),
    )
    expect(unguarded).toEqual([])
  })

  for (const [key, cases] of Object.entries(matrix)) {
    it(key, async () => {
      expect(await runEntry(key, cases)).toEqual([])
    })
  }
})
