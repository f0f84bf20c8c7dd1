import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { EmailCodePurpose } from '../../db/types.ts'

export function createAuthRepo(db: Db) {
  return {
    findUserByEmail(email: string, trx: Db | Trx = db) {
      return trx
        .selectFrom('porchlightUser')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['porchlightUserEmailId']), '=', email.toLowerCase()))
        .executeTakeFirst()
    },

    findUserById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('porchlightUser').selectAll().where('id', '=', id).executeTakeFirst()
    },

    createUser(email: string, passwordHash: string, trx: Trx) {
      return trx
        .insertInto('porchlightUser')
        .values({ porchlightUserEmailId: email, porchlightUserPass: passwordHash, userEnabled: false })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    enableUser(id: number, trx: Trx) {
      return trx
        .updateTable('porchlightUser')
        .set({ userEnabled: true, updatedDate: new Date() })
        .where('id', '=', id)
        .execute()
    },

    setPassword(id: number, passwordHash: string, trx: Trx) {
      return trx
        .updateTable('porchlightUser')
        .set({ porchlightUserPass: passwordHash, updatedDate: new Date() })
        .where('id', '=', id)
        .execute()
    },

    setEmail(id: number, email: string, trx: Db | Trx = db) {
      return trx
        .updateTable('porchlightUser')
        .set({ porchlightUserEmailId: email, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Earlier codes of the same purpose stop working when a new one is issued. */
    async issueCode(
      userId: number,
      purpose: EmailCodePurpose,
      codeHash: string,
      ttlMs: number,
      trx: Trx,
      newEmail: string | null = null,
    ) {
      await trx
        .updateTable('emailCode')
        .set({ usedAt: new Date() })
        .where('userId', '=', userId)
        .where('purpose', '=', purpose)
        .where('usedAt', 'is', null)
        .execute()
      await trx
        .insertInto('emailCode')
        .values({ userId, purpose, codeHash, newEmail, expiresAt: new Date(Date.now() + ttlMs) })
        .execute()
    },

    liveCodes(userId: number, purpose: EmailCodePurpose, trx: Db | Trx = db) {
      return trx
        .selectFrom('emailCode')
        .selectAll()
        .where('userId', '=', userId)
        .where('purpose', '=', purpose)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', new Date())
        .orderBy('id', 'desc')
        .execute()
    },

    /**
     * Takes one of the code's `max` attempts in one conditional statement, before the guess is judged:
     * however many guesses race, at most `max` are ever compared. Null once none is left (or the code
     * was used or expired meanwhile).
     */
    takeAttempt(codeId: number, max: number) {
      return db
        .updateTable('emailCode')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', codeId)
        .where('attempts', '<', max)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', new Date())
        .returning('attempts')
        .executeTakeFirst()
    },

    /** Single use: only the first caller gets the row back. */
    useCode(codeId: number, trx: Db | Trx = db) {
      return trx
        .updateTable('emailCode')
        .set({ usedAt: new Date() })
        .where('id', '=', codeId)
        .where('usedAt', 'is', null)
        .returning('id')
        .executeTakeFirst()
    },

    retireCodes(userId: number, purpose: EmailCodePurpose, trx: Trx) {
      return trx
        .updateTable('emailCode')
        .set({ usedAt: new Date() })
        .where('userId', '=', userId)
        .where('purpose', '=', purpose)
        .where('usedAt', 'is', null)
        .execute()
    },
  }
}

export type AuthRepo = ReturnType<typeof createAuthRepo>
export type UserRow = NonNullable<Awaited<ReturnType<AuthRepo['findUserById']>>>
