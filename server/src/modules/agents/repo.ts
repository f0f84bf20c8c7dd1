import type { Insertable, Updateable } from 'kysely'
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

    listByFirmLicense(license: string) {
      return db
        .selectFrom('reAgent')
        .selectAll()
        .where('reAgentBrokerFirmLicense', '=', license)
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

    /** Teams the agent leads, co-leads or belongs to. */
    async teamIds(agentId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('reTeam')
        .select('reTeam.id')
        .leftJoin('reTeamMember', (j) =>
          j.onRef('reTeamMember.reTeamId', '=', 'reTeam.id').on('reTeamMember.reAgentId', '=', agentId),
        )
        .where((eb) =>
          eb.or([
            eb('reTeam.reTeamLeadId', '=', agentId),
            eb('reTeam.reCoTeamLeadId', '=', agentId),
            eb('reTeamMember.id', 'is not', null),
          ]),
        )
        .execute()
      return [...new Set(rows.map((r) => r.id))]
    },
  }
}

export type AgentRepo = ReturnType<typeof createAgentRepo>
export type AgentRow = NonNullable<Awaited<ReturnType<AgentRepo['getById']>>>
