import { rooms } from '@porchlight/shared'
import { onCommit, type Trx } from '../db/transaction.ts'
import { backgroundFailures } from '../failures.ts'
import type { EventSink } from './events.ts'

/**
 * 'stats.changed' for agents whose numbers moved, and for every team they lead, co-lead or belong to,
 * so a Team Lead's dashboard follows its members' open houses and guests live.
 */
export function createStatsNotifier(teamIdsOf: (agentIds: number[]) => Promise<number[]>, sink: EventSink) {
  async function emitNow(agentIds: Array<number | null | undefined>): Promise<void> {
    const ids = [...new Set(agentIds.filter((id): id is number => typeof id === 'number'))]
    const teams = await teamIdsOf(ids)
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
