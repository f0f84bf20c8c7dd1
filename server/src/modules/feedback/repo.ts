import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { type Insertable, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { OpenHouseFeedbackTable } from '../../db/types.ts'

type Scope = { openHouseId: number } | { hostingReAgentId: number }

export function createFeedbackRepo(db: Db) {
  function scoped(scope: Scope) {
    const q = db.selectFrom('openHouseFeedback')
    return 'openHouseId' in scope
      ? q.where('openHouseId', '=', scope.openHouseId)
      : q.where('hostingReAgentId', '=', scope.hostingReAgentId)
  }

  return {
    create(values: Insertable<OpenHouseFeedbackTable>, trx: Db | Trx = db) {
      return trx.insertInto('openHouseFeedback').values(values).returningAll().executeTakeFirstOrThrow()
    },

    /** Only the feedback given at the visitor's own visit (decision 029). */
    update(
      id: number,
      owner: { openHouseId: number; attendeeId: number },
      values: Updateable<OpenHouseFeedbackTable>,
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('openHouseFeedback')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .where('openHouseId', '=', owner.openHouseId)
        .where('attendeeId', '=', owner.attendeeId)
        .returningAll()
        .executeTakeFirst()
    },

    /**
     * Count, each rating's average rounded to a whole number (null where nobody rated it) and how many
     * rated it (`<field>Count`), in one SQL statement.
     */
    averages(scope: Scope) {
      return scoped(scope)
        .select((eb) => [
          eb.fn.countAll<number>().as('count'),
          ...FEEDBACK_RATING_FIELDS.map((f) => sql<number | null>`round(${eb.fn.avg(f)})::int`.as(f)),
          ...FEEDBACK_RATING_FIELDS.map((f) => sql<number>`count(${sql.ref(f)})::int`.as(`${f}Count`)),
        ])
        .executeTakeFirstOrThrow()
    },

    /** The written feedback, newest first. */
    texts(scope: Scope) {
      return scoped(scope)
        .select('feedbackText')
        .where('feedbackText', 'is not', null)
        .orderBy('createdDate', 'desc')
        .orderBy('id', 'desc')
        .execute()
        .then((rows) => rows.map((r) => r.feedbackText as string))
    },
  }
}

export type FeedbackRepo = ReturnType<typeof createFeedbackRepo>
export type FeedbackRow = Awaited<ReturnType<FeedbackRepo['create']>>
