import type { EventEnvelope, EventType, ServerToClientEvents } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Socket } from 'socket.io-client'
import { agentSocket } from '../../api/socket.ts'
import { dashboardStatisticsKey } from '../dashboard/queries.ts'
import { teamKeys } from './keys.ts'

/**
 * Keeps the dashboard statistics and the team screens current from the agent's socket. 'stats.changed'
 * is the server's word that a count moved; the claim, withdrawal and cancel events also refresh the
 * numbers, since a Team Lead's team rows move when a member's open house changes hands, which the
 * server announces to the team room but not as 'stats.changed' to the lead. Only mounted queries
 * refetch; the rest are just marked stale.
 */
export function useTeamLiveUpdates(agentId: number | undefined) {
  const queryClient = useQueryClient()

  useEffect(() => {
    if (!agentId) return
    let socket: Socket<ServerToClientEvents> | null = null
    let stopped = false
    const refreshStats = () =>
      void queryClient.invalidateQueries({ queryKey: dashboardStatisticsKey(agentId) })

    const handlers: { [T in EventType]?: (event: EventEnvelope<T>) => void } = {
      'stats.changed': ({ data }) => {
        refreshStats()
        if (data.reTeamId !== undefined) void queryClient.invalidateQueries({ queryKey: teamKeys.all })
      },
      'opportunity.claimed': refreshStats,
      'opportunity.withdrawn': refreshStats,
      'openHouse.canceled': refreshStats,
    }

    void agentSocket(queryClient).then((connected) => {
      if (stopped) return
      socket = connected as Socket<ServerToClientEvents>
      for (const [type, handler] of Object.entries(handlers)) {
        // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed `on` cannot follow a mapped handler.
        ;(socket as any).on(type, handler)
      }
    })

    return () => {
      stopped = true
      for (const [type, handler] of Object.entries(handlers)) {
        // biome-ignore lint/suspicious/noExplicitAny: as above.
        ;(socket as any)?.off(type, handler)
      }
    }
  }, [agentId, queryClient])
}
