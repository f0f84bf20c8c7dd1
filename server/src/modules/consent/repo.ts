import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { ConsentKind, ConsentSource } from '../../db/types.ts'

export const normalEmail = (email: string) => email.trim().toLowerCase()

/** The consent ledger, unsubscribe tokens and the follow-up of a visit: the only SQL of this module. */
export function createConsentRepo(db: Db) {
  return {
    record(
      e: {
        reAgentId: number
        prospectId: number | null
        email: string
        kind: ConsentKind
        source: ConsentSource
        detail?: string | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .insertInto('consentEvent')
        .values({ ...e, email: normalEmail(e.email), detail: e.detail ?? null })
        .returning(['id', 'at'])
        .executeTakeFirstOrThrow()
    },

    /**
     * Records the opt-out unless one is already recorded for the agent and address: one statement, so a
     * repeated click (or a mail client's and a person's at once) adds nothing. Undefined when it was known.
     */
    optOutOnce(
      e: { reAgentId: number; prospectId: number | null; email: string; source: ConsentSource },
      trx: Db | Trx = db,
    ) {
      const email = normalEmail(e.email)
      return sql<{ id: number }>`
        insert into consent_event (re_agent_id, prospect_id, email, kind, source)
        select ${e.reAgentId}, ${e.prospectId}, ${email}, 'email_opt_out', ${e.source}
        where not exists (select 1 from consent_event where re_agent_id = ${e.reAgentId}
          and email = ${email} and kind = 'email_opt_out')
        returning id`
        .execute(trx)
        .then((r) => r.rows[0])
    },

    /**
     * Ledger rows, many in one statement (a batch of sign-ins' opt-ins), each at its own moment: the
     * consent was given at the sign-in, not when the worker wrote it down.
     */
    async recordEach(
      events: Array<{
        reAgentId: number
        prospectId: number
        email: string
        kind: ConsentKind
        source: ConsentSource
        detail: string
        at: Date
      }>,
      trx: Trx,
    ): Promise<void> {
      if (events.length === 0) return
      await trx
        .insertInto('consentEvent')
        .values(events.map((e) => ({ ...e, email: normalEmail(e.email) })))
        .execute()
    },

    /**
     * Takes up to `size` visits owed their welcome (decision 053), deleting their marks in the caller's
     * transaction (`for update skip locked`: another worker's batch takes others), with what the welcome
     * needs: who and when, the address as the guest typed it, the open house's follow-up flag now. A
     * visit set aside (its welcome failed by itself) is taken only once its `retry_at` has come.
     */
    takeWelcomes(size: number, trx: Trx) {
      return trx
        .with('taken', (qc) =>
          qc
            .deleteFrom('guestWelcome')
            .where('attendeeId', 'in', (eb) =>
              eb
                .selectFrom('guestWelcome')
                .select('attendeeId')
                .where((w) => w.or([w('retryAt', 'is', null), w('retryAt', '<=', sql<Date>`now()`)]))
                .orderBy('attendeeId')
                .limit(size)
                .forUpdate()
                .skipLocked(),
            )
            .returning(['attendeeId', 'trace', 'attempts']),
        )
        .selectFrom('taken')
        .innerJoin('openHouseAttendee as a', 'a.id', 'taken.attendeeId')
        .innerJoin('prospect as p', 'p.id', 'a.prospectId')
        .innerJoin('openHouse as oh', 'oh.id', 'a.openHouseId')
        .select([
          'a.id as attendeeId',
          'a.openHouseId',
          'a.prospectId',
          'a.createdDate as signedInAt',
          sql<string>`a.guest_details->>'prospectEmailId'`.as('email'),
          sql<string>`a.guest_details->>'prospectFirstName'`.as('firstName'),
          'p.createdByReAgentId as ownerId',
          'oh.followUpMailFlag',
          // The row's jsonb as text: the rows the welcome writes carry it on as they were given it.
          sql<string | null>`taken.trace::text`.as('trace'),
          'taken.attempts',
        ])
        .orderBy('a.id')
        .execute()
    },

    /**
     * Puts a taken visit's mark back, set aside: its welcome failed `attempts` times, and is not taken
     * again before `retryAt` ('infinity': until an operator sets it to null).
     */
    async setAsideWelcome(
      w: {
        attendeeId: number
        trace: string | null
        attempts: number
        retryAt: Date | 'infinity'
        lastError: string
      },
      trx: Trx,
    ): Promise<void> {
      await trx.insertInto('guestWelcome').values(w).execute()
    },

    /** Which of these agent and address pairs an opt-out stands for: `${reAgentId} ${email}` of each. */
    async optedOutAmong(
      pairs: Array<{ reAgentId: number; email: string }>,
      trx: Db | Trx = db,
    ): Promise<Set<string>> {
      if (pairs.length === 0) return new Set()
      const rows = await trx
        .selectFrom('consentEvent')
        .select(['reAgentId', 'email'])
        .distinct()
        .where('kind', '=', 'email_opt_out')
        .where(
          sql<boolean>`(re_agent_id, email) in (select * from unnest(${pairs.map((p) => p.reAgentId)}::bigint[], ${pairs.map((p) => normalEmail(p.email))}::text[]))`,
        )
        .execute()
      return new Set(rows.map((r) => `${r.reAgentId} ${r.email}`))
    },

    /** An opt-out stands: no mail of any kind goes to the address for that agent afterwards. */
    async optedOut(reAgentId: number, email: string, trx: Db | Trx = db): Promise<boolean> {
      const row = await trx
        .selectFrom('consentEvent')
        .select('id')
        .where('reAgentId', '=', reAgentId)
        .where('email', '=', normalEmail(email))
        .where('kind', '=', 'email_opt_out')
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },

    /** The owner's ledger for the prospect's address (its other prospects with that address included). */
    history(prospectId: number) {
      return db
        .selectFrom('consentEvent as e')
        .innerJoin('prospect as p', (j) =>
          j
            .onRef('p.createdByReAgentId', '=', 'e.reAgentId')
            .on(sql`lower(p.prospect_email_id)`, '=', sql.ref('e.email')),
        )
        .select(['e.id', 'e.kind', 'e.source', 'e.at', 'e.detail', 'e.email'])
        .where('p.id', '=', prospectId)
        .orderBy('e.at', 'desc')
        .orderBy('e.id', 'desc')
        .execute()
    },

    async saveTokens(
      tokens: Array<{ tokenHash: string; reAgentId: number; prospectId: number | null; email: string }>,
      trx: Db | Trx = db,
    ): Promise<void> {
      if (tokens.length === 0) return
      await trx
        .insertInto('unsubscribeToken')
        .values(tokens.map((t) => ({ ...t, email: normalEmail(t.email) })))
        .execute()
    },

    token(tokenHash: string, trx: Db | Trx = db) {
      return trx
        .selectFrom('unsubscribeToken')
        .select(['reAgentId', 'prospectId', 'email'])
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst()
    },

    /** The prospect's owner and address, which its opt-out is recorded for. */
    prospectAddress(prospectId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('prospect')
        .select(['createdByReAgentId as reAgentId', 'prospectEmailId as email'])
        .where('id', '=', prospectId)
        .executeTakeFirst()
    },

    /** The agent's prospects with this address no longer consent to email; their ids. */
    withdrawEmailConsent(reAgentId: number, email: string, trx: Db | Trx = db) {
      return trx
        .updateTable('prospect')
        .set({ emailConsent: false, consentAt: new Date(), updatedDate: new Date() })
        .where('createdByReAgentId', '=', reAgentId)
        .where(sql`lower(prospect_email_id)`, '=', normalEmail(email))
        .returning('id')
        .execute()
    },

    /** What the two-day follow-up needs, read when it is due. */
    followUpContext(openHouseId: number, prospectId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('openHouse as oh')
        .innerJoin('reProperty as p', 'p.id', 'oh.rePropertyId')
        .innerJoin('prospect as g', (j) => j.on('g.id', '=', prospectId))
        .innerJoin('reAgent as a', 'a.id', 'g.createdByReAgentId')
        .select([
          'oh.id',
          'oh.listingReAgentId',
          'oh.hostingReAgentId',
          'oh.followUpMailFlag',
          'oh.openHouseCanceledFlag',
          'oh.listingUrl',
          'oh.rePropertyId',
          'p.propertyAddress1',
          'p.propertyAddress2',
          'p.propertyCity',
          'p.propertyState',
          'p.propertyZipCode',
          'p.propertyZipPlus4',
          'p.propertyCountry',
          'g.prospectEmailId',
          'g.prospectFirstName',
          'g.emailConsent',
          'g.createdByReAgentId',
          'a.reAgentFirstName',
          'a.reAgentLastName',
          'a.reAgentEmailId',
        ])
        .where('oh.id', '=', openHouseId)
        .executeTakeFirst()
    },

    /** Takes the visit's follow-up: false when it was taken already (a repeated job). */
    async takeFollowUp(openHouseId: number, prospectId: number, trx: Trx): Promise<boolean> {
      const row = await trx
        .insertInto('guestFollowUp')
        .values({ openHouseId, prospectId })
        .onConflict((oc) => oc.doNothing())
        .returning('prospectId')
        .executeTakeFirst()
      return row !== undefined
    },

    setFollowUpMail(openHouseId: number, prospectId: number, mailId: number, trx: Trx) {
      return trx
        .updateTable('guestFollowUp')
        .set({ mailId })
        .where('openHouseId', '=', openHouseId)
        .where('prospectId', '=', prospectId)
        .execute()
    },
  }
}

export type ConsentRepo = ReturnType<typeof createConsentRepo>
