import { randomBytes } from 'node:crypto'
import type { AgentRow } from '../../db/rows.ts'
import { NotFoundError } from '../../errors.ts'
import { calendarOf } from './feed.ts'
import type { CalendarRepo } from './repo.ts'

export interface CalendarDeps {
  repo: CalendarRepo
  /** Read when an address is made: PUBLIC_URL may be settled after start (port 0). */
  config: { publicUrl: string }
}

const TOKEN_SHAPE = /^[\w-]{20,100}$/
const FEED_GONE = 'This calendar feed was revoked. Copy the new address from Porchlight.'

/**
 * An agent's private iCalendar feed (issue 14): a secret address per agent, which calendar apps poll;
 * revoking it makes the old address answer 404 and the next request for the address gives a new one.
 */
export function createCalendarService(d: CalendarDeps) {
  const { repo } = d

  return {
    async feedUrl(caller: AgentRow): Promise<{ url: string }> {
      const token = await repo.tokenOf(caller.id, randomBytes(32).toString('base64url'))
      return { url: `${d.config.publicUrl}/api/public/calendar/${token}.ics` }
    },

    async revoke(caller: AgentRow): Promise<{ revoked: boolean }> {
      return { revoked: await repo.remove(caller.id) }
    },

    async feed(token: string): Promise<string> {
      const agentId = TOKEN_SHAPE.test(token) ? await repo.agentOf(token) : undefined
      if (agentId === undefined) throw new NotFoundError(FEED_GONE)
      return calendarOf(await repo.upcoming(agentId), agentId, d.config.publicUrl)
    },
  }
}

export type CalendarService = ReturnType<typeof createCalendarService>
