import { type Insertable, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { ReAgentTable } from '../../db/types.ts'

export function createAgentRepo(db: Db) {
  return {
    findByUserId(userId: number, trx: Db | Trx = db) {
      return trx.selectFrom('reAgent').selectAll().where('porchlightUserId', '=', userId).executeTakeFirst()
    },

    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('reAgent').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** The firm's verified members; with `requests`, also who asks to join (pending) or was declined. */
    listByFirmLicense(license: string, requests: boolean) {
      let q = db.selectFrom('reAgent').selectAll().where('reAgentBrokerFirmLicense', '=', license)
      if (!requests) q = q.where('firmMembershipStatus', '=', 'verified')
      return q
        .orderBy(sql`firm_membership_status = 'pending'`, 'desc')
        .orderBy('reAgentLastName')
        .orderBy('reAgentFirstName')
        .execute()
    },

    emailTaken(email: string, exceptAgentId?: number) {
      let q = db
        .selectFrom('reAgent')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['reAgentEmailId']), '=', email.toLowerCase()))
      if (exceptAgentId) q = q.where('id', '!=', exceptAgentId)
      return q.executeTakeFirst().then(Boolean)
    },

    create(values: Insertable<ReAgentTable>) {
      return db.insertInto('reAgent').values(values).returningAll().executeTakeFirstOrThrow()
    },

    update(id: number, values: Updateable<ReAgentTable>) {
      return db
        .updateTable('reAgent')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Sets the decision only while the agent still claims that firm license. */
    setFirmMembership(
      id: number,
      license: string,
      status: 'verified' | 'declined',
      by: number | null,
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('reAgent')
        .set({
          firmMembershipStatus: status,
          firmMembershipDecidedByReAgentId: by,
          firmMembershipDecidedAt: new Date(),
          updatedDate: new Date(),
        })
        .where('id', '=', id)
        .where('reAgentBrokerFirmLicense', '=', license)
        .returningAll()
        .executeTakeFirst()
    },

    findByFirmAndEmail(license: string, email: string) {
      return db
        .selectFrom('reAgent')
        .selectAll()
        .where('reAgentBrokerFirmLicense', '=', license)
        .where((eb) => eb(eb.fn('lower', ['reAgentEmailId']), '=', email.toLowerCase()))
        .executeTakeFirst()
    },
  }
}

export type AgentRepo = ReturnType<typeof createAgentRepo>
export type { AgentRow } from '../../db/rows.ts'
