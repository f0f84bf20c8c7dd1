import type { Db } from '../../db/database.ts'

export function createAgentRepo(db: Db) {
  return {
    findByUserId(userId: number) {
      return db
        .selectFrom('reAgent')
        .select(['id', 'reAgentBrokerFirmLicense', 'reAgentLicenseValidityFlag', 'reAgentRole'])
        .where('porchlightUserId', '=', userId)
        .executeTakeFirst()
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
