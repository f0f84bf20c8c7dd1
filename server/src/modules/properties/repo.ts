import type { Insertable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { RePropertyTable } from '../../db/types.ts'

export function createPropertyRepo(db: Db) {
  return {
    create(values: Insertable<RePropertyTable>, trx: Db | Trx = db) {
      return trx.insertInto('reProperty').values(values).returningAll().executeTakeFirstOrThrow()
    },
    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('reProperty').selectAll().where('id', '=', id).executeTakeFirst()
    },
    update(id: number, values: Partial<Insertable<RePropertyTable>>, trx: Db | Trx = db) {
      return trx
        .updateTable('reProperty')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },
  }
}

export type PropertyRepo = ReturnType<typeof createPropertyRepo>
export type PropertyRow = NonNullable<Awaited<ReturnType<PropertyRepo['getById']>>>
