import { createHash, randomBytes } from 'node:crypto'
import { type ConsentEntry, completeAddress, mayKeepProspect } from '@porchlight/shared'
import { guestSignInUrl } from '@porchlight/shared/rules/guest-url'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import type { ConsentSource } from '../../db/types.ts'
import { NotFoundError } from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { WebhookEvents } from '../../jobs/webhook-events.ts'
import { type MailContent, type QueueOptions, queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import type { Access } from '../../policy/access.ts'
import type { SecretBox } from '../../secrets.ts'
import { withUnsubscribe } from './mail.ts'
import type { ConsentRepo } from './repo.ts'

/** The follow-up goes out two days after the sign-in. */
export const FOLLOW_UP_DELAY_MS = 2 * 24 * 3600 * 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export interface ConsentDeps {
  db: Db
  repo: ConsentRepo
  outbox: Outbox
  access: Access
  webhooks: WebhookEvents
  config: Pick<Config, 'publicUrl'>
  /** Seals the unsubscribe link kept with the mail until it goes out (decision 033). */
  secrets: SecretBox
}

export interface GuestVisit {
  ownerId: number
  prospectId: number
  openHouseId: number
  email: string
  firstName: string
  /** The thank-you's words: the open house as a mail names it. */
  visit: { address: string; when: string; agent: string; agentEmail: string }
}

/**
 * A guest's email consent as a ledger, and the mail that depends on it: the thank-you and the two-day
 * follow-up carry an unsubscribe link; an opt-out is recorded once with its time and source, told to the
 * agent's webhooks as consent.changed, and stops every later mail to the address for that agent.
 */
export function createConsentService(d: ConsentDeps) {
  const { repo } = d

  /** A new unsubscribe URL for the address and agent; only its token's hash is kept. */
  async function unsubscribeUrl(trx: Trx, to: { reAgentId: number; prospectId: number; email: string }) {
    const token = randomBytes(24).toString('base64url')
    await repo.saveToken({ tokenHash: hashToken(token), ...to }, trx)
    return `${d.config.publicUrl}/api/public/unsubscribe/${token}`
  }

  async function queueGuestMail(
    trx: Trx,
    to: { reAgentId: number; prospectId: number; email: string },
    mail: MailContent,
    options?: QueueOptions,
  ): Promise<number> {
    const url = await unsubscribeUrl(trx, to)
    const sealed = d.secrets.seal(url, 'mail.unsubscribe_url')
    return queueMail(trx, d.outbox, { ...withUnsubscribe(mail, sealed), forAgentId: to.reAgentId }, options)
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

  return {
    optedOut: (reAgentId: number, email: string) => repo.optedOut(reAgentId, email),

    /**
     * In the sign-in's transaction, for a guest who agreed to email: the opt-in goes in the ledger, the
     * thank-you is queued, and the follow-up is due in two days unless the open house turned it off.
     * An address that opted out from this agent before gets neither.
     */
    async guestSignedIn(trx: Trx, g: GuestVisit): Promise<void> {
      const optedOut = await repo.optedOut(g.ownerId, g.email, trx)
      await repo.record(
        {
          reAgentId: g.ownerId,
          prospectId: g.prospectId,
          email: g.email,
          kind: 'email_opt_in',
          source: 'guest_sign_in',
          // The ledger says why no mail follows this consent: the earlier opt-out stands.
          detail: optedOut
            ? `${g.visit.address}; an earlier unsubscribe stands, no mail is sent`
            : g.visit.address,
        },
        trx,
      )
      if (optedOut) return
      const to = { reAgentId: g.ownerId, prospectId: g.prospectId, email: g.email }
      await queueGuestMail(
        trx,
        to,
        {
          ...mailTemplates.guestThankYou(g.email, { firstName: g.firstName, ...g.visit }),
          // From the agent's name at our address, and a reply reaches the agent (not no-reply).
          fromName: g.visit.agent,
          replyTo: g.visit.agentEmail,
        },
        // Sign-ins come in bursts at the door: the worker sends their thank-yous several to a job.
        { jobs: 'gathered' },
      )
      const oh = await repo.followUpFlag(g.openHouseId, trx)
      if (oh?.followUpMailFlag) {
        await d.outbox.add(
          trx,
          'mail',
          'followUp',
          { openHouseId: g.openHouseId, prospectId: g.prospectId },
          { runAt: new Date(Date.now() + FOLLOW_UP_DELAY_MS) },
        )
      }
    },

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
