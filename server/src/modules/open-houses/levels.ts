import { type Actor, isTeamLevel, messages, type PublishLevel, publishLevelsFor } from '@porchlight/shared'
import type { AgentRow } from '../../db/rows.ts'
import { ValidationError } from '../../errors.ts'
import type { OpenHouseRepo, OpenHouseRow } from './repo.ts'

/**
 * publishLevelId per SPEC §9: 0 Hosting Myself, -1 Open To All, the verified firm's license, or the
 * scheduler's team of that type that the listing agent belongs to.
 */
export async function publishLevelId(
  repo: OpenHouseRepo,
  scheduler: Actor,
  listingId: number,
  level: PublishLevel,
): Promise<string> {
  if (level === 'Hosting Myself') return '0'
  if (level === 'Open To All') return '-1'
  if (level === 'Market Center') {
    if (!scheduler.firmVerified) {
      throw new ValidationError([{ field: 'publishLevel', message: messages.firmNotVerified }])
    }
    return scheduler.firmLicense
  }
  const team = await repo.teamOfType(scheduler.id, scheduler.teamIds, listingId, level)
  if (!team) {
    throw new ValidationError([
      {
        field: 'publishLevel',
        message: `There is no active ${level} of yours that the listing agent has joined to publish to`,
      },
    ])
  }
  return String(team.id)
}

export function assertLevelAllowed(agent: AgentRow, level: PublishLevel) {
  if (!publishLevelsFor(agent.reAgentRole).includes(level)) {
    throw new ValidationError([
      { field: 'publishLevel', message: `A ${agent.reAgentRole} cannot publish to ${level}` },
    ])
  }
}

/**
 * The level an open house is published at, and its id. The scheduler's choice (a team level the
 * listing agent's own role could not pick) stays publishable by the listing agent while it is still
 * a member of that team.
 */
export async function levelFor(
  repo: OpenHouseRepo,
  caller: AgentRow,
  who: Actor,
  row: OpenHouseRow,
  level: PublishLevel,
) {
  if (
    level === row.publishLevel &&
    isTeamLevel(level) &&
    who.teamIds.map(String).includes(row.publishLevelId)
  ) {
    return row.publishLevelId
  }
  assertLevelAllowed(caller, level)
  return publishLevelId(repo, who, row.listingReAgentId, level)
}

/**
 * The host once an edit sets the level: 'Hosting Myself' makes the listing agent the host and takes
 * back any offer; leaving 'Hosting Myself' releases the listing agent, so the open house has no host
 * and can be offered (Publish), its date and times still open to change.
 */
export function hostAfterLevel(row: OpenHouseRow, level: PublishLevel) {
  if (level === 'Hosting Myself') return { hostingReAgentId: row.listingReAgentId, publishedAt: null }
  if (row.publishLevel === 'Hosting Myself') return { hostingReAgentId: null, publishedAt: null }
  return { hostingReAgentId: row.hostingReAgentId }
}
