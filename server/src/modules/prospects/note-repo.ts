import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'

/** The owner's dated notes on its prospects (table prospect_note). */
export function createProspectNoteRepo(db: Db) {
  return {
    /** The prospect's notes, newest first. */
    list(prospectId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('prospectNote')
        .select(['id', 'prospectId', 'noteText', 'createdDate'])
        .where('prospectId', '=', prospectId)
        .orderBy('createdDate', 'desc')
        .orderBy('id', 'desc')
        .execute()
    },

    add(values: { prospectId: number; reAgentId: number; noteText: string }, trx: Db | Trx = db) {
      return trx
        .insertInto('prospectNote')
        .values(values)
        .returning(['id', 'prospectId', 'noteText', 'createdDate'])
        .executeTakeFirstOrThrow()
    },
  }
}

export type ProspectNoteRepo = ReturnType<typeof createProspectNoteRepo>
