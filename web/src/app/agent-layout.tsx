import { Outlet } from '@tanstack/react-router'
import { useSessionInfo } from '../features/session/queries.ts'
import { useLiveBridge } from '../live/bridge.ts'
import { LiveAnnouncer } from '../live/live-announcer.tsx'
import { LiveStatusIndicator } from '../live/live-status.tsx'
import { liveWiring } from './live-events.ts'

/**
 * Every signed-in page: the live bridge keeps the open-house lists, the dashboard statistics, the
 * teams and the attendee board current from the agent's socket wherever the agent is, so coming back
 * to a list never shows a stale claim. Every such page is live, so each says whether it is (one
 * indicator) and shows what changed (toasts, also read out).
 */
export function AgentLayout() {
  const { agent } = useSessionInfo()
  useLiveBridge(agent?.id, liveWiring)
  return (
    <>
      {agent && <LiveStatusIndicator />}
      <Outlet />
      <LiveAnnouncer />
    </>
  )
}
