import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { CustomQuestionKind } from '../../db/types.ts'

const COLUMNS = ['id', 'openHouseId', 'position', 'questionText', 'kind', 'choices', 'removedAt'] as const

/** The open houses' custom questions (table open_house_question). */
export function createCustomQuestionRepo(db: Db) {
  return {
    /** The questions of these open houses, in order; `withRemoved` also those taken off the form. */
    list(openHouseIds: number[], withRemoved: boolean, trx: Db | Trx = db) {
      if (openHouseIds.length === 0) return Promise.resolve([])
      let q = trx.selectFrom('openHouseQuestion').select(COLUMNS).where('openHouseId', 'in', openHouseIds)
      if (!withRemoved) q = q.where('removedAt', 'is', null)
      return q.orderBy('openHouseId').orderBy('position').orderBy('id').execute()
    },

    insert(
      values: {
        openHouseId: number
        position: number
        questionText: string
        kind: CustomQuestionKind
        choices: string[] | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .insertInto('openHouseQuestion')
        .values({ ...values, choices: values.choices ? JSON.stringify(values.choices) : null })
        .returning('id')
        .executeTakeFirstOrThrow()
    },

    update(
      id: number,
      values: { position: number; questionText: string; kind: CustomQuestionKind; choices: string[] | null },
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('openHouseQuestion')
        .set({ ...values, choices: values.choices ? JSON.stringify(values.choices) : null })
        .where('id', '=', id)
        .execute()
    },

    /** The answers these prospects gave at their visits, oldest visit first, each with its question. */
    answersOfProspects(prospectIds: number[], trx: Db | Trx = db) {
      if (prospectIds.length === 0) return Promise.resolve([])
      return trx
        .selectFrom('openHouseAttendee as a')
        .innerJoin('openHouseQuestion as q', 'q.openHouseId', 'a.openHouseId')
        .select(['a.prospectId', 'q.questionText', sql<string>`a.custom_answers ->> q.id::text`.as('answer')])
        .where('a.prospectId', '=', sql<number>`any(${sql.val(prospectIds)}::bigint[])`)
        .where('a.customAnswers', 'is not', null)
        .where(sql<boolean>`a.custom_answers ? q.id::text`)
        .orderBy('a.createdDate')
        .orderBy('q.position')
        .orderBy('q.id')
        .execute()
    },

    /**
     * A prospect's answered visits, newest first: all of them for its owner (`everyVisit`), otherwise
     * those to open houses the agent lists, hosts or scheduled.
     */
    answeredVisits(prospectId: number, agentId: number, everyVisit: boolean) {
      let q = db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('openHouse as oh', 'oh.id', 'a.openHouseId')
        .innerJoin('reProperty as p', 'p.id', 'oh.rePropertyId')
        .select([
          'a.openHouseId',
          'a.createdDate',
          'a.customAnswers',
          'oh.scheduledDate',
          sql<string>`concat_ws(', ', p.property_address1, p.property_city)`.as('propertyAddress'),
        ])
        .where('a.prospectId', '=', prospectId)
        .where('a.customAnswers', 'is not', null)
      if (!everyVisit) {
        q = q.where((eb) =>
          eb.or([
            eb('oh.listingReAgentId', '=', agentId),
            eb('oh.hostingReAgentId', '=', agentId),
            eb('oh.scheduledByReAgentId', '=', agentId),
          ]),
        )
      }
      return q.orderBy('a.createdDate', 'desc').orderBy('a.id', 'desc').execute()
    },

    /** Takes questions off the form; their answers keep reading with their wording. */
    remove(ids: number[], trx: Db | Trx = db) {
      if (ids.length === 0) return Promise.resolve([])
      return trx
        .updateTable('openHouseQuestion')
        .set({ removedAt: new Date() })
        .where('id', 'in', ids)
        .where('removedAt', 'is', null)
        .execute()
    },
  }
}

export type CustomQuestionRepo = ReturnType<typeof createCustomQuestionRepo>
export type CustomQuestionRow = Awaited<ReturnType<CustomQuestionRepo['list']>>[number]
