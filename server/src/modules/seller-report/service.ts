import { createHash, randomBytes } from 'node:crypto'
import { type FeedbackRatingField, mayOnOpenHouse, rooms } from '@porchlight/shared'
import type {
  SellerReport,
  SellerReportLink,
  SellerReportLinkStatus,
} from '@porchlight/shared/schemas/seller-report'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { PRIVATE_LINK } from '../../mail/unsubscribe-link.ts'
import type { Access } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import type { SecretBox } from '../../secrets.ts'
import { withUnsubscribe } from '../consent/mail.ts'
import type { SellerReportRepo } from './repo.ts'
import { buildSellerReport } from './report.ts'

export interface SellerReportDeps {
  db: Db
  repo: SellerReportRepo
  access: Access
  sockets: SocketRooms
  outbox: Outbox
  /** Seals a link's token (kept for the seller's mail) and the mail's unsubscribe link (decision 051). */
  secrets: SecretBox
  /** Read when a link is made: PUBLIC_URL may be settled after start (port 0). */
  config: { publicUrl: string }
}

const TOKEN_COLUMN = 'seller_report_link.token'

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
  async function listingSide(caller: AgentRow, openHouseId: number, informSeller = false): Promise<void> {
    const [who, oh] = await Promise.all([d.access.actor(caller), d.access.openHouseFacts(openHouseId)])
    if (!oh || !mayOnOpenHouse(who, 'shareSellerReport', oh)) throw new NotFoundError()
    // The seller's address: the listing agent's alone, not the teammate who schedules for it (403).
    if (informSeller) d.access.allowedOn(who, 'informSeller', oh)
  }

  /**
   * The seller's mail is due when the open house ends (at once if it has ended already). scheduleEnd
   * writes the same job for a new end time; every job asks again when it runs, and takes the mail once.
   */
  async function scheduleSellerMail(trx: Trx, openHouseId: number): Promise<void> {
    const oh = await repo.openHouse(openHouseId, trx)
    if (!oh?.endsAt || oh.openHouseCanceledFlag) return
    const runAt = new Date(Math.max(new Date(oh.endsAt).getTime(), Date.now()))
    await d.outbox.add(trx, 'receipts', 'seller', { openHouseId }, { runAt })
  }

  async function status(openHouseId: number): Promise<SellerReportLinkStatus> {
    const [{ active, expiresAt }, newest] = await Promise.all([
      repo.working(openHouseId),
      repo.newestWorking(openHouseId),
    ])
    return {
      active,
      expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
      seller: newest
        ? {
            email: newest.sellerEmail,
            unsubscribed: newest.sellerUnsubscribedAt !== null,
            mailedAt: newest.mailedAt ? new Date(newest.mailedAt).toISOString() : null,
          }
        : null,
    }
  }

  const sellerUnsubscribeUrl = (token: string) =>
    `${d.config.publicUrl}/api/public/unsubscribeSeller/${token}`

  async function openHouseOf(token: string): Promise<{ openHouseId: number; expiresAt: Date } | null> {
    if (!TOKEN_SHAPE.test(token)) return null
    return (await repo.byTokenHash(hashToken(token))) ?? null
  }

  return {
    async create(
      caller: AgentRow,
      openHouseId: number,
      expiresInDays: number,
      sellerEmail: string | null = null,
    ): Promise<SellerReportLink> {
      await listingSide(caller, openHouseId, sellerEmail !== null)
      const token = randomBytes(32).toString('base64url')
      const row = await inTransaction(d.db, async (trx) => {
        const made = await repo.create(
          {
            openHouseId,
            tokenHash: hashToken(token),
            token: d.secrets.seal(token, TOKEN_COLUMN),
            createdByReAgentId: caller.id,
            expiresAt: new Date(Date.now() + expiresInDays * 86_400_000),
            sellerEmail,
          },
          trx,
        )
        if (sellerEmail !== null) await scheduleSellerMail(trx, openHouseId)
        return made
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
      return status(openHouseId)
    },

    /**
     * The listing agent sets, changes or removes (null) the seller's address on the open house's newest
     * working link. A link made before links kept their token cannot carry it (409: make a new link).
     */
    async setSellerEmail(
      caller: AgentRow,
      openHouseId: number,
      sellerEmail: string | null,
    ): Promise<SellerReportLinkStatus> {
      await listingSide(caller, openHouseId, true)
      await inTransaction(d.db, async (trx) => {
        const link = await repo.newestWorking(openHouseId, trx)
        if (!link) throw new ConflictError('INVALID_STATE', 'Make a seller report link first')
        if (!link.token && sellerEmail !== null)
          throw new ConflictError('INVALID_STATE', "Make a new seller report link to add the seller's email")
        await repo.setSellerEmail(link.id, sellerEmail, trx)
        if (sellerEmail !== null) await scheduleSellerMail(trx, openHouseId)
      })
      return status(openHouseId)
    },

    /**
     * The job due when the open house ends: each working link with a seller's address gets its one mail
     * (a second job, a moved end, a retry find it taken). Nothing for a canceled open house, one that has
     * not ended (its end moved later: that job will come), a revoked or expired link, or an unsubscribed
     * seller. Answers how many mails it wrote.
     */
    async sendSellerMails(openHouseId: number): Promise<number> {
      return inTransaction(d.db, async (trx) => {
        const links = await repo.sellersToMail(openHouseId, trx)
        if (links.length === 0) return 0
        const oh = await repo.openHouse(openHouseId, trx)
        if (!oh) return 0
        const [visits, feedback] = await Promise.all([
          repo.visits(openHouseId, trx),
          repo.feedback(openHouseId, trx),
        ])
        const agent = `${oh.listingFirstName} ${oh.listingLastName}`
        let written = 0
        for (const link of links) {
          if (!link.token || !link.sellerEmail) continue
          const unsubscribe = randomBytes(24).toString('base64url')
          const taken = await repo.takeSellerMail(
            { linkId: link.id, openHouseId, unsubscribeTokenHash: hashToken(unsubscribe) },
            trx,
          )
          if (!taken) continue
          // The same report the page shows: counts, averages, comments without names or contacts.
          const report = buildSellerReport(oh, visits, feedback, new Date(link.expiresAt))
          const token = d.secrets.open(link.token, TOKEN_COLUMN)
          const mail = mailTemplates.sellerOpenHouseEnded(link.sellerEmail, {
            address: report.openHouse.address,
            when: report.openHouse.scheduledDate
              ? `${report.openHouse.scheduledDate}, ${report.openHouse.scheduledStartTime} – ${report.openHouse.scheduledEndTime}`
              : 'date to be picked',
            agent,
            visitors: report.visitors,
            feedback: {
              count: report.feedback.count,
              averages: Object.fromEntries(
                report.feedback.ratings.map((r) => [r.field as FeedbackRatingField, r.average]),
              ),
              comments: report.feedback.comments,
            },
            // The live link opens the report without a sign-in: sealed beside the mail, not in its body.
            link: PRIVATE_LINK,
            expires: report.expiresAt.slice(0, 10),
          })
          const sealed = d.secrets.seal(sellerUnsubscribeUrl(unsubscribe), 'mail.unsubscribe_url')
          const mailId = await queueMail(trx, d.outbox, {
            ...withUnsubscribe(mail, sealed),
            fromName: agent,
            replyTo: oh.listingEmail,
            privateLink: d.secrets.seal(`${d.config.publicUrl}/seller/${token}`, 'mail.private_link'),
          })
          await repo.setSellerMail(link.id, openHouseId, mailId, trx)
          written++
        }
        return written
      })
    },

    /** Whether a seller's unsubscribe token is one we gave, and whether it was used. */
    async sellerUnsubscribeKnown(token: string): Promise<{ optedOut: boolean } | null> {
      if (!TOKEN_SHAPE.test(token)) return null
      const t = await repo.unsubscribeTarget(hashToken(token))
      return t ? { optedOut: t.sellerUnsubscribedAt !== null } : null
    },

    /** The seller's one-click unsubscribe: no more mail for that link. A repeat changes nothing. */
    async unsubscribeSeller(token: string): Promise<void> {
      const t = TOKEN_SHAPE.test(token) ? await repo.unsubscribeTarget(hashToken(token)) : undefined
      if (!t) throw new NotFoundError()
      await repo.unsubscribeSeller(t.id)
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
