import { agentRooms, mayOnOpenHouse, rooms } from '@porchlight/shared'
import type { SocketAuthority } from '../realtime/server.ts'
import type { Access, AgentLike } from './access.ts'

export interface SocketAuthorityDeps {
  access: Access
  /** The session a token stands for, with its user's agent profile (null without one). */
  session(token: string): Promise<{ id: string; userId: number; agent: AgentLike | null } | null>
  /** The agent row by id. */
  agentById(id: number): Promise<AgentLike | undefined>
  /** The open house a working seller report link's token opens. */
  sellerReportOpenHouse(token: string): Promise<number | null>
}

/** The socket server's questions, answered by the one policy. */
export function createSocketAuthority(d: SocketAuthorityDeps): SocketAuthority {
  return {
    async agent(token) {
      const session = await d.session(token)
      if (!session) return null
      const { agent } = session
      // Its own session's room: revoking the session (sign-out, password change) ends the socket.
      const own = rooms.session(session.id)
      if (!agent) return { userId: session.userId, rooms: [own] }
      return {
        userId: session.userId,
        agentId: agent.id,
        rooms: [own, ...agentRooms(await d.access.actor(agent))],
      }
    },
    async guest(openHouseId) {
      const oh = await d.access.openHouseFacts(openHouseId)
      return oh !== undefined && (oh.published || oh.hostingREAgentId !== null)
    },
    async watch(agentId, openHouseId) {
      const [agent, oh] = await Promise.all([d.agentById(agentId), d.access.openHouseFacts(openHouseId)])
      if (!agent || !oh) return false
      return mayOnOpenHouse(await d.access.actor(agent), 'viewAttendees', oh)
    },
    // The link's token is the seller's whole authority, as on HTTP.
    seller: (token) => d.sellerReportOpenHouse(token),
  }
}
