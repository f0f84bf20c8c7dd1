import { rooms } from '@porchlight/shared'
import type { Db } from '../db/database.ts'
import { onCommit, type Trx } from '../db/transaction.ts'
import { backgroundFailures } from '../failures.ts'
import type { EventSink } from './events.ts'

/**
 * 'stats.changed' for agents whose numbers moved, and for every team they lead, co-lead or belong to,
 * so a Team Lead's dashboard follows its members' open houses and guests live.
 */
export function createStatsNotifier(db: Db, sink: EventSink) {
  async function teamIds(agentIds: number[]): Promise<number[]> {
    if (agentIds.length === 0) return []
    const rows = await db
      .selectFrom('reTeam')
      .leftJoin('reTeamMember', (j) =>
        j
          .onRef('reTeamMember.reTeamId', '=', 'reTeam.id')
          .on('reTeamMember.invitationStatus', '=', 'accepted'),
      )
      .select('reTeam.id')
      .where((eb) =>
        eb.or([
          eb('reTeam.reTeamLeadId', 'in', agentIds),
          eb('reTeam.reCoTeamLeadId', 'in', agentIds),
          eb('reTeamMember.reAgentId', 'in', agentIds),
        ]),
      )
      .execute()
    return [...new Set(rows.map((r) => r.id))]
  }

  async function emitNow(agentIds: Array<number | null | undefined>): Promise<void> {
    const ids = [...new Set(agentIds.filter((id): id is number => typeof id === 'number'))]
    const teams = await teamIds(ids)
    sink.emit([...ids.map(rooms.agent), ...teams.map(rooms.team)], 'stats.changed', {})
  }

  return {
    /** After `trx` commits. */
    changed(trx: Trx, agentIds: Array<number | null | undefined>): void {
      onCommit(trx, () => emitNow(agentIds))
    },
    /** For a change already committed (a single-statement claim or withdraw). */
    changedNow(agentIds: Array<number | null | undefined>): Promise<void> {
      return emitNow(agentIds).catch((err) => backgroundFailures.report('stats-event', err, { agentIds }))
    },
  }
}

export type StatsNotifier = ReturnType<typeof createStatsNotifier>
