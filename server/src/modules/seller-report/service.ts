import { createHash, randomBytes } from 'node:crypto'
import { mayOnOpenHouse, rooms } from '@porchlight/shared'
import type {
  SellerReport,
  SellerReportLink,
  SellerReportLinkStatus,
} from '@porchlight/shared/schemas/seller-report'
import type { AgentRow } from '../../db/rows.ts'
import { NotFoundError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import type { SellerReportRepo } from './repo.ts'
import { buildSellerReport } from './report.ts'

export interface SellerReportDeps {
  repo: SellerReportRepo
  access: Access
  sockets: SocketRooms
  /** Read when a link is made: PUBLIC_URL may be settled after start (port 0). */
  config: { publicUrl: string }
}

/** The answer to a link that is unknown, revoked or expired: nothing tells them apart. */
const LINK_GONE = 'This seller report link has expired or was revoked. Ask your agent for a new one.'

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
/** A token in a path segment: what a link can carry, before any database read. */
const TOKEN_SHAPE = /^[\w-]{20,100}$/

/**
 * The seller's private report of an open house: the listing side makes and revokes its links; the
 * link's token (256 random bits, only its SHA-256 kept) reads the report until it expires.
 */
export function createSellerReportService(d: SellerReportDeps) {
  const { repo } = d

  /**
   * The listing agent or the teammate who scheduled for it (the one policy's shareSellerReport). To
   * anyone else the link is not there to know of: 404, as for an open house it may not see.
   */
  async function listingSide(caller: AgentRow, openHouseId: number): Promise<void> {
    const [who, oh] = await Promise.all([d.access.actor(caller), d.access.openHouseFacts(openHouseId)])
    if (!oh || !mayOnOpenHouse(who, 'shareSellerReport', oh)) throw new NotFoundError()
  }

  async function openHouseOf(token: string): Promise<{ openHouseId: number; expiresAt: Date } | null> {
    if (!TOKEN_SHAPE.test(token)) return null
    return (await repo.byTokenHash(hashToken(token))) ?? null
  }

  return {
    async create(caller: AgentRow, openHouseId: number, expiresInDays: number): Promise<SellerReportLink> {
      await listingSide(caller, openHouseId)
      const token = randomBytes(32).toString('base64url')
      const row = await repo.create({
        openHouseId,
        tokenHash: hashToken(token),
        createdByReAgentId: caller.id,
        expiresAt: new Date(Date.now() + expiresInDays * 86_400_000),
      })
      return {
        url: `${d.config.publicUrl}/seller/${token}`,
        expiresAt: new Date(row.expiresAt).toISOString(),
      }
    },

    /** Ends every link of the open house; pages open on them stop hearing of changes at once. */
    async revoke(caller: AgentRow, openHouseId: number): Promise<{ revoked: number }> {
      await listingSide(caller, openHouseId)
      const revoked = await repo.revokeAll(openHouseId)
      d.sockets.disconnect(rooms.seller(openHouseId))
      return { revoked }
    },

    async status(caller: AgentRow, openHouseId: number): Promise<SellerReportLinkStatus> {
      await listingSide(caller, openHouseId)
      const { active, expiresAt } = await repo.working(openHouseId)
      return { active, expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null }
    },

    /** The report a working link opens; 404 for a link unknown, revoked or expired. */
    async report(token: string): Promise<SellerReport> {
      const link = await openHouseOf(token)
      const oh = link && (await repo.openHouse(link.openHouseId))
      if (!link || !oh) throw new NotFoundError(LINK_GONE)
      const [visits, feedback] = await Promise.all([
        repo.visits(link.openHouseId),
        repo.feedback(link.openHouseId),
      ])
      return buildSellerReport(oh, visits, feedback, new Date(link.expiresAt))
    },

    /** For the socket handshake: the open house whose changes a seller page may hear. */
    async openHouseForSocket(token: string): Promise<number | null> {
      return (await openHouseOf(token))?.openHouseId ?? null
    },
  }
}

export type SellerReportService = ReturnType<typeof createSellerReportService>
