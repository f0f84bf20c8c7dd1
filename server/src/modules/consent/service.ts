import { createHash, randomBytes } from 'node:crypto'
import { type ConsentEntry, completeAddress, mayKeepProspect } from '@porchlight/shared'
import { guestSignInUrl } from '@porchlight/shared/rules/guest-url'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import type { ConsentSource } from '../../db/types.ts'
import { NotFoundError } from '../../errors.ts'
import type { BatchWork, SetAside } from '../../jobs/batches.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import { type MailContent, queueMail, queueMails } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import type { Access } from '../../policy/access.ts'
import type { SecretBox } from '../../secrets.ts'
import { withUnsubscribe } from './mail.ts'
import { type ConsentRepo, normalEmail } from './repo.ts'

/** The follow-up goes out two days after the sign-in. */
export const FOLLOW_UP_DELAY_MS = 2 * 24 * 3600 * 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Whom a guest mail is for: the agent it is sent for, the prospect, the address. */
interface GuestAddress {
  reAgentId: number
  prospectId: number
  email: string
}

export interface ConsentDeps {
  db: Db
  repo: ConsentRepo
  outbox: Outbox
  access: Access
  webhooks: WebhookEvents
  config: Pick<Config, 'publicUrl'>
  /** Seals the unsubscribe link kept with the mail until it goes out (decision 033). */
  secrets: SecretBox
  /** The thank-you's words: the open house as a mail names it (attendees' mailContext). */
  mailContext: (openHouseId: number, trx: Trx) => Promise<VisitWords>
}

export interface VisitWords {
  address: string
  when: string
  agent: string
  /** Where a guest's reply goes: the agent it met. */
  agentEmail: string
}

/** Consenting guests' welcomes taken per transaction by the worker (decision 053). */
export const WELCOMES_PER_BATCH = 100

/**
 * A welcome that failed by itself (its visit's data) is tried again after these delays, one for each
 * failure; after the last it is left for an operator (decision 053, amended): a thank-you for a visit
 * is worth sending a few hours late, not days.
 */
export const WELCOME_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000]

/** A visit owed its welcome, as the worker takes it. */
export type OwedWelcome = Awaited<ReturnType<ConsentRepo['takeWelcomes']>>[number]

/**
 * A guest's email consent as a ledger, and the mail that depends on it: the thank-you and the two-day
 * follow-up carry an unsubscribe link; an opt-out is recorded once with its time and source, told to the
 * agent's webhooks as consent.changed, and stops every later mail to the address for that agent.
 */
export function createConsentService(d: ConsentDeps) {
  const { repo } = d

  /**
   * Guest mails with their unsubscribe: a new URL for each address and agent (only its token's hash is
   * kept), sealed with the mail until it goes out. The mails, ready to queue.
   */
  async function withUnsubscribes(
    trx: Trx,
    mails: Array<{ to: GuestAddress; mail: MailContent }>,
  ): Promise<MailContent[]> {
    const tokens = mails.map(() => randomBytes(24).toString('base64url'))
    await repo.saveTokens(
      mails.map(({ to }, i) => ({ tokenHash: hashToken(tokens[i] as string), ...to })),
      trx,
    )
    return mails.map(({ to, mail }, i) => {
      const url = `${d.config.publicUrl}/api/public/unsubscribe/${tokens[i]}`
      const sealed = d.secrets.seal(url, 'mail.unsubscribe_url')
      return { ...withUnsubscribe(mail, sealed), forAgentId: to.reAgentId }
    })
  }

  async function queueGuestMail(trx: Trx, to: GuestAddress, mail: MailContent): Promise<number> {
    const [ready] = await withUnsubscribes(trx, [{ to, mail }])
    if (!ready) throw new Error('no guest mail was made')
    return queueMail(trx, d.outbox, ready)
  }

  /** The owner's own prospect, else 404 (mayKeepProspect). */
  async function owned(caller: AgentRow, prospectId: number): Promise<void> {
    const [facts, actor] = await Promise.all([
      d.access.prospectFacts(prospectId, caller.id),
      d.access.actor(caller),
    ])
    if (!facts || !mayKeepProspect(actor, facts)) throw new NotFoundError()
  }

  async function history(prospectId: number): Promise<ConsentEntry[]> {
    const rows = await repo.history(prospectId)
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      source: r.source,
      at: new Date(r.at).toISOString(),
      detail: r.detail,
    }))
  }

  /**
   * Records the address's opt-out for the agent once; the first time, the agent's prospects with it
   * stop consenting to email and its webhooks hear consent.changed for each.
   */
  async function optOutAddress(
    trx: Trx,
    o: { reAgentId: number; prospectId: number | null; email: string; source: ConsentSource },
  ): Promise<void> {
    const recorded = await repo.optOutOnce(o, trx)
    if (!recorded) return
    for (const p of await repo.withdrawEmailConsent(o.reAgentId, o.email, trx)) {
      await d.webhooks.consentChanged(trx, p.id)
    }
  }

  /** The welcomes of these visits, in the transaction that took them. */
  async function welcome(trx: Trx, visits: OwedWelcome[]): Promise<void> {
    if (visits.length === 0) return
    const optedOut = await repo.optedOutAmong(
      visits.map((v) => ({ reAgentId: v.ownerId, email: v.email })),
      trx,
    )
    const stands = (v: OwedWelcome) => optedOut.has(`${v.ownerId} ${normalEmail(v.email)}`)
    const words = new Map<number, VisitWords>()
    for (const v of visits) {
      if (!words.has(v.openHouseId)) words.set(v.openHouseId, await d.mailContext(v.openHouseId, trx))
    }
    const wordsOf = (v: OwedWelcome) => words.get(v.openHouseId) as VisitWords
    await repo.recordEach(
      visits.map((v) => ({
        reAgentId: v.ownerId,
        prospectId: v.prospectId,
        email: v.email,
        kind: 'email_opt_in' as const,
        source: 'guest_sign_in' as const,
        // The ledger says why no mail follows this consent: the earlier opt-out stands.
        detail: stands(v)
          ? `${wordsOf(v).address}; an earlier unsubscribe stands, no mail is sent`
          : wordsOf(v).address,
        at: new Date(v.signedInAt),
      })),
      trx,
    )
    const welcomed = visits.filter((v) => !stands(v))
    const thankYous = await withUnsubscribes(
      trx,
      welcomed.map((v) => ({
        to: { reAgentId: v.ownerId, prospectId: v.prospectId, email: v.email },
        mail: {
          ...mailTemplates.guestThankYou(v.email, { firstName: v.firstName, ...wordsOf(v) }),
          // From the agent's name at our address, and a reply reaches the agent (not no-reply).
          fromName: wordsOf(v).agent,
          replyTo: wordsOf(v).agentEmail,
          // Sent inside the trace of the sign-in it thanks for.
          trace: v.trace,
        },
      })),
    )
    // A door's burst of thank-yous goes out several to a send job.
    await queueMails(trx, d.outbox, thankYous)
    await d.outbox.addScheduled(
      trx,
      'mail',
      'followUp',
      welcomed
        .filter((v) => v.followUpMailFlag)
        .map((v) => ({
          payload: { openHouseId: v.openHouseId, prospectId: v.prospectId },
          runAt: new Date(new Date(v.signedInAt).getTime() + FOLLOW_UP_DELAY_MS),
          trace: v.trace,
        })),
    )
  }

  return {
    optedOut: (reAgentId: number, email: string) => repo.optedOut(reAgentId, email),

    /** `optedOut` for many agent and address pairs in one read: an answer for each, in their order. */
    async optedOutEach(asked: Array<{ agentId: number; email: string }>): Promise<boolean[]> {
      const stands = await repo.optedOutAmong(
        asked.map((a) => ({ reAgentId: a.agentId, email: a.email })),
        d.db,
      )
      return asked.map((a) => stands.has(`${a.agentId} ${normalEmail(a.email)}`))
    },

    /**
     * Consenting guests' welcomes (decision 053), done by the worker in batches (jobs/batches.ts), each
     * batch in the transaction that takes its visits: each visit's opt-in goes in the ledger at the
     * moment of its sign-in, its thank-you is queued, and its follow-up is due two days after the sign-in
     * unless the open house has it turned off. An address that opted out from this agent before gets
     * neither. A visit whose welcome fails by itself is set aside: tried again after a delay, then left
     * for an operator.
     */
    welcomeGuests: {
      take: (trx: Trx, size: number) => repo.takeWelcomes(size, trx),
      work: (trx: Trx, visits: OwedWelcome[]) => welcome(trx, visits),
      async setAside(trx: Trx, v: OwedWelcome, error: unknown): Promise<SetAside> {
        const attempts = v.attempts + 1
        const delay = WELCOME_RETRY_DELAYS_MS[attempts - 1]
        const retryAt = delay === undefined ? null : new Date(Date.now() + delay)
        const message = error instanceof Error ? error.message : String(error)
        await repo.setAsideWelcome(
          {
            attendeeId: v.attendeeId,
            trace: v.trace,
            attempts,
            retryAt: retryAt ?? 'infinity',
            lastError: message.slice(0, 2000),
          },
          trx,
        )
        return { attempts, retryAt, context: { attendeeId: v.attendeeId, openHouseId: v.openHouseId } }
      },
    } satisfies BatchWork<OwedWelcome>,

    /**
     * The follow-up job, two days on: everything is asked again now (the open house's flag, the guest's
     * consent, an opt-out in between), and it is taken once per visit, so a repeated job sends nothing.
     */
    async sendFollowUp({ openHouseId, prospectId }: { openHouseId: number; prospectId: number }) {
      return inTransaction(d.db, async (trx) => {
        const c = await repo.followUpContext(openHouseId, prospectId, trx)
        if (!c?.followUpMailFlag || c.openHouseCanceledFlag || !c.emailConsent) return 'skipped'
        if (await repo.optedOut(c.createdByReAgentId, c.prospectEmailId, trx)) return 'skipped'
        if (!(await repo.takeFollowUp(openHouseId, prospectId, trx))) return 'skipped'
        const agent = `${c.reAgentFirstName} ${c.reAgentLastName}`
        const link =
          c.listingUrl ??
          guestSignInUrl(d.config.publicUrl, {
            id: c.id,
            rePropertyId: c.rePropertyId,
            listingREAgentId: c.listingReAgentId,
            hostingREAgentId: c.hostingReAgentId,
          })
        const mail = mailTemplates.guestFollowUp(c.prospectEmailId, {
          firstName: c.prospectFirstName,
          address: completeAddress(c),
          agent,
          link,
        })
        const mailId = await queueGuestMail(
          trx,
          { reAgentId: c.createdByReAgentId, prospectId, email: c.prospectEmailId },
          { ...mail, fromName: agent, replyTo: c.reAgentEmailId },
        )
        await repo.setFollowUpMail(openHouseId, prospectId, mailId, trx)
        return 'queued'
      })
    },

    /**
     * The unsubscribe link was used (a mail client's one-click POST or the page's button). Unknown
     * tokens are 404. A repeat changes nothing and answers the same.
     */
    async optOut(token: string, source: 'one_click' | 'unsubscribe_page'): Promise<void> {
      await inTransaction(d.db, async (trx) => {
        const t = await repo.token(hashToken(token), trx)
        if (!t) throw new NotFoundError()
        await optOutAddress(trx, { ...t, source })
      })
    },

    /** The owner records an opt-out the guest asked for another way (a call, a reply): source 'agent'. */
    async optOutByAgent(caller: AgentRow, prospectId: number): Promise<ConsentEntry[]> {
      await owned(caller, prospectId)
      await inTransaction(d.db, async (trx) => {
        const p = await repo.prospectAddress(prospectId, trx)
        if (!p) throw new NotFoundError()
        await optOutAddress(trx, { ...p, prospectId, source: 'agent' })
      })
      return history(prospectId)
    },

    /** Whether the unsubscribe page's token is one we gave (the page says so before asking to confirm). */
    async tokenKnown(token: string): Promise<{ optedOut: boolean } | null> {
      const t = await repo.token(hashToken(token))
      return t ? { optedOut: await repo.optedOut(t.reAgentId, t.email) } : null
    },

    /** The prospect's consent history, newest first: its owner only (404 to everyone else). */
    async history(caller: AgentRow, prospectId: number): Promise<ConsentEntry[]> {
      await owned(caller, prospectId)
      return history(prospectId)
    },
  }
}

export type ConsentService = ReturnType<typeof createConsentService>
