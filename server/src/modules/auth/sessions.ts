import { createHash } from 'node:crypto'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { rooms } from '@porchlight/shared'
import { sql } from 'kysely'
import { compiledOnce, type Params } from '../../db/compiled-once.ts'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { backgroundFailures } from '../../failures.ts'
import { batched } from '../../lib/batched.ts'
import { metrics } from '../../lib/metrics.ts'
import { type Access, actorTeamsColumn } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import type { SessionCache } from './session-cache.ts'

const DAY_MS = 24 * 60 * 60 * 1000
export const SESSION_TTL_MS = 30 * DAY_MS
/** A session is pushed forward at most once an hour, so reads stay reads. */
const REFRESH_AFTER_MS = 60 * 60 * 1000
/**
 * Session reads out at once (the pool has 10 connections): requests arriving while one read is out go
 * in a read of their own rather than waiting for it to answer first. In a claim race of agents not
 * seen lately the 200 requests arrive over 5–20 ms; one read at a time sent them in 4–5 reads one
 * after another (1, 12, 16, then the rest), so the last claims waited for every read before theirs.
 */
const SESSION_READS_AT_ONCE = 4

export interface SessionRecord {
  id: string
  userId: number
  expiresAt: Date
  /** Opened with a temporary password (the account is being recovered). */
  recovery: boolean
}

/** A session with the user's agent profile (null without one): what every agent's request asks first. */
export type SessionWithAgent = SessionRecord & { agent: AgentRow | null }

/** 160 random bits, shown to the client once; only its SHA-256 is stored (Lucia's session guide). */
export function generateSessionToken(): string {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

/** The token's SHA-256 in hex: the session's id. */
export function sessionIdFromToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * The agent's columns of a session's row (which has the session's columns and the agent's teams too), as
 * the agent every guard puts on its request. Written out rather than taken with a rest pattern (`const {
 * sessionId, …, ...agent } = row`): V8 copies a rest pattern's properties one by one through its runtime,
 * about 15 µs for this row of 31 columns on a 2-core machine, once per request of an agent not seen in
 * the last few seconds (200 in a claim race); the literal takes under 1 µs. As an object literal typed
 * AgentRow, it fails to compile until a column added to re_agent is named here.
 */
function agentColumns(row: AgentRow): AgentRow {
  return {
    id: row.id,
    porchlightUserId: row.porchlightUserId,
    reAgentFirmName: row.reAgentFirmName,
    reAgentFirstName: row.reAgentFirstName,
    reAgentMiddleName: row.reAgentMiddleName,
    reAgentLastName: row.reAgentLastName,
    reAgentEmailId: row.reAgentEmailId,
    reAgentPhoneCountryCode: row.reAgentPhoneCountryCode,
    reAgentPhoneNumber: row.reAgentPhoneNumber,
    reAgentLicensedState: row.reAgentLicensedState,
    reAgentLicenseNumber: row.reAgentLicenseNumber,
    reAgentLicenseValidityFlag: row.reAgentLicenseValidityFlag,
    reAgentBrokerFirmName: row.reAgentBrokerFirmName,
    reAgentBrokerFirmLicense: row.reAgentBrokerFirmLicense,
    reAgentDateOfBirth: row.reAgentDateOfBirth,
    reAgentResidenceZipCode: row.reAgentResidenceZipCode,
    reAgentRole: row.reAgentRole,
    requestedRole: row.requestedRole,
    reAgentTeamId: row.reAgentTeamId,
    reAgentPartneredTeamId: row.reAgentPartneredTeamId,
    firmMembershipStatus: row.firmMembershipStatus,
    firmVerificationRequestedAt: row.firmVerificationRequestedAt,
    firmMembershipDecidedByReAgentId: row.firmMembershipDecidedByReAgentId,
    firmMembershipDecidedAt: row.firmMembershipDecidedAt,
    createdDate: row.createdDate,
    updatedDate: row.updatedDate,
  }
}

/** Whether the session must be read again: ended, or due to slide forward (which only a read does). */
const due = (session: SessionRecord, now: number) =>
  session.expiresAt.getTime() <= now || now + SESSION_TTL_MS - session.expiresAt.getTime() >= REFRESH_AFTER_MS

/**
 * Revoking a session ends its open sockets at once, in every process. Sessions are kept briefly in
 * `cache` (session-cache.ts), which forgets them on any change to sessions, agents or teams.
 */
export function createSessionService(
  db: Db,
  sockets: SocketRooms,
  cache: SessionCache<SessionWithAgent>,
  /** The policy, given the agent's facts read with it. */
  access: Pick<Access, 'actorRead'>,
) {
  const idOf = (token: string) => (/^[a-z2-7]{32}$/.test(token) ? sessionIdFromToken(token) : null)
  // Read by every request of an agent not seen in the last few seconds: built once (compiled-once.ts),
  // and shared by the requests that ask at the same moment (a claim race, a page's first calls after a
  // deploy): one statement for all of them instead of one each. It reads the policy's facts of the
  // agent too (its teams), so such a request reads nothing else before its own statement.
  const sessionsWithAgents = compiledOnce(db, 'sessions-with-agents', (v: Params<{ ids: string[] }>) =>
    db
      .selectFrom('session')
      .leftJoin('reAgent', 'reAgent.porchlightUserId', 'session.userId')
      .selectAll('reAgent')
      .select([
        'session.id as sessionId',
        'session.userId as sessionUserId',
        'session.expiresAt as sessionExpiresAt',
        'session.recovery as sessionRecovery',
        actorTeamsColumn('reAgent').as('actorTeams'),
      ])
      .where(sql<boolean>`session.id = any(${v.ids})`),
  )
  const sessionWithAgent = batched(
    async (ids: string[]) => {
      const rows = await sessionsWithAgents({ ids })
      const byId = new Map(rows.map((row) => [row.sessionId, row]))
      return ids.map((id) => byId.get(id))
    },
    200,
    SESSION_READS_AT_ONCE,
  )

  /**
   * The session as it stands now: null (and gone) once expired; its expiry slid forward hourly. The
   * slide is sent and not waited for: the request goes on while it is written. Until it is, the row
   * keeps the expiry it had, still valid for 29 days and more; should it fail, the next request that
   * reads the row slides it (it is still due), so a session never ends sooner than the policy says.
   */
  async function current(row: SessionRecord): Promise<SessionRecord | null> {
    const now = Date.now()
    const expiresAt = new Date(row.expiresAt)
    if (expiresAt.getTime() <= now) {
      await db.deleteFrom('session').where('id', '=', row.id).execute()
      return null
    }
    if (now + SESSION_TTL_MS - expiresAt.getTime() >= REFRESH_AFTER_MS) {
      const next = new Date(now + SESSION_TTL_MS)
      db.updateTable('session')
        .set({ expiresAt: next })
        .where('id', '=', row.id)
        .execute()
        .catch((err) => backgroundFailures.report('session-slide', err, { userId: row.userId }))
      return { id: row.id, userId: row.userId, expiresAt: next, recovery: row.recovery }
    }
    return { id: row.id, userId: row.userId, expiresAt, recovery: row.recovery }
  }

  /**
   * `validate`, and the user's agent profile (null without one), in one round trip, or none while
   * kept: every agent's request and socket asks both before anything else.
   */
  async function validateWithAgent(token: string): Promise<SessionWithAgent | null> {
    const id = idOf(token)
    if (!id) return null
    const kept = cache.get(id)
    if (kept && !due(kept, Date.now())) {
      metrics.count('sessionCache', { result: 'hit' })
      return kept
    }
    metrics.count('sessionCache', { result: 'miss' })
    const since = cache.begin()
    const row = await sessionWithAgent(id)
    if (!row) return null
    const session = await current({
      id: row.sessionId,
      userId: row.sessionUserId,
      expiresAt: row.sessionExpiresAt,
      recovery: row.sessionRecovery,
    })
    if (!session) return null
    // Without a profile every agent column is null, its id first of all.
    const found = { ...session, agent: row.id === null ? null : agentColumns(row as AgentRow) }
    if (found.agent) access.actorRead(found.agent, row.actorTeams)
    cache.keep(id, found, since)
    return found
  }

  return {
    async create(userId: number, recovery = false): Promise<{ token: string; session: SessionRecord }> {
      const token = generateSessionToken()
      const session = {
        id: sessionIdFromToken(token),
        userId,
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
        recovery,
      }
      await db.insertInto('session').values(session).execute()
      return { token, session }
    },

    /** The session behind a token, or null when unknown or expired; slides the expiry forward. */
    async validate(token: string): Promise<SessionRecord | null> {
      const found = await validateWithAgent(token)
      if (!found) return null
      const { agent: _agent, ...session } = found
      return session
    },

    validateWithAgent,

    /** The recovery is over (a new password was set): the session is an ordinary one. */
    async endRecovery(sessionId: string): Promise<void> {
      await db.updateTable('session').set({ recovery: false }).where('id', '=', sessionId).execute()
    },

    async revoke(sessionId: string): Promise<void> {
      await db.deleteFrom('session').where('id', '=', sessionId).execute()
      sockets.disconnect(rooms.session(sessionId))
    },

    async revokeAllOthers(userId: number, keepSessionId: string): Promise<void> {
      const revoked = await db
        .deleteFrom('session')
        .where('userId', '=', userId)
        .where('id', '!=', keepSessionId)
        .returning('id')
        .execute()
      for (const { id } of revoked) sockets.disconnect(rooms.session(id))
    },
  }
}

export type SessionService = ReturnType<typeof createSessionService>
