import { rooms } from '@porchlight/shared'
import { onCommit, type Trx } from '../db/transaction.ts'
import { backgroundFailures } from '../failures.ts'
import type { EventSink } from './events.ts'

/** Changes within this long are told as one 'stats.changed' (the dashboards refetch on it). */
export const STATS_COALESCE_MS = 200

/**
 * 'stats.changed' for agents whose numbers moved, and for every team they lead, co-lead or belong to,
 * so a Team Lead's dashboard follows its members' open houses and guests live. The event is a hint to
 * refetch, so changes close together are told once: at 300 sign-ins a second the teams are looked up and
 * the event sent five times a second, not 300.
 */
export function createStatsNotifier(teamIdsOf: (agentIds: number[]) => Promise<number[]>, sink: EventSink) {
  let pending = new Set<number>()
  let timer: NodeJS.Timeout | null = null
  let stopped = false

  async function emit(ids: number[]): Promise<void> {
    const teams = await teamIdsOf(ids)
    if (stopped) return
    sink.emit([...ids.map(rooms.agent), ...teams.map(rooms.team)], 'stats.changed', {})
  }

  /** Adds the agents to the next event; nobody waits for it. */
  function tell(agentIds: Array<number | null | undefined>): void {
    for (const id of agentIds) if (typeof id === 'number') pending.add(id)
    if (timer || stopped) return
    timer = setTimeout(() => {
      timer = null
      const ids = [...pending]
      pending = new Set()
      emit(ids).catch((err) => backgroundFailures.report('stats-event', err, { agentIds: ids }))
    }, STATS_COALESCE_MS)
    timer.unref()
  }

  return {
    /** After `trx` commits. */
    changed(trx: Trx, agentIds: Array<number | null | undefined>): void {
      onCommit(trx, () => tell(agentIds))
    },
    /** For a change already committed (a single-statement claim or withdraw). */
    changedNow(agentIds: Array<number | null | undefined>): void {
      tell(agentIds)
    },
    /** The process is stopping: a hint not yet told is dropped (dashboards refetch when they reconnect). */
    stop(): void {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      pending = new Set()
    },
  }
}

export type StatsNotifier = ReturnType<typeof createStatsNotifier>
