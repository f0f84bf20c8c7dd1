import type { Db } from '../../db/database.ts'

export function createOpenHouseRepo(db: Db) {
  return {
    /** Who may watch an open house's live board: its listing and hosting agents. */
    participants(id: number) {
      return db
        .selectFrom('openHouse')
        .select(['id', 'listingReAgentId', 'hostingReAgentId'])
        .where('id', '=', id)
        .executeTakeFirst()
    },
  }
}

export type OpenHouseRepo = ReturnType<typeof createOpenHouseRepo>
