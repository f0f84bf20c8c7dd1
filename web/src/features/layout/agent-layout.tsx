import { Outlet } from '@tanstack/react-router'
import { useOpenHouseLiveUpdates } from '../open-houses/live.ts'
import { LiveAnnouncer } from '../open-houses/live-announcer.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { useTeamLiveUpdates } from '../teams/live.ts'

/**
 * Every signed-in page: keeps the open-house lists, the dashboard statistics and the teams live from
 * the agent's socket wherever the agent is, so coming back to a list never shows a stale claim.
 */
export function AgentLayout() {
  const { agent } = useSessionInfo()
  useOpenHouseLiveUpdates(agent?.id)
  useTeamLiveUpdates(agent?.id)
  return (
    <>
      <Outlet />
      <LiveAnnouncer />
    </>
  )
}
