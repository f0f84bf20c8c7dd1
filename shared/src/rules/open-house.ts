import { FLEXI_TIME, PUBLISH_LEVELS, type PublishLevel } from '../enums.ts'

/** SPEC §4: what a list shows for an open house's state. */
export function openHouseStatus(oh: {
  openHouseCanceledFlag: boolean
  hostingREAgentId: number | null
  scheduledDate: string | null
}): 'Canceled' | 'Hosted' | 'Not Hosted' | 'Pick your own date' {
  if (oh.openHouseCanceledFlag) return 'Canceled'
  if (oh.hostingREAgentId !== null) return 'Hosted'
  if (!oh.scheduledDate) return 'Pick your own date'
  return 'Not Hosted'
}

/** A claim of a flexible date or time goes through updateSchedule to fix them first (SPEC §4). */
export function needsScheduleOnClaim(oh: {
  scheduledDate: string | null
  scheduledStartTime: string
  scheduledEndTime: string
}): boolean {
  return !oh.scheduledDate || oh.scheduledStartTime === FLEXI_TIME || oh.scheduledEndTime === FLEXI_TIME
}

/** SPEC §6: the publish levels each role may choose. */
export function publishLevelsFor(role: string): PublishLevel[] {
  if (role === 'Real Estate Agent') return ['Hosting Myself', 'Market Center', 'Open To All']
  if (role === 'Team Lead')
    return ['Real Estate Team', 'Real Estate Group', 'Partnered Team', 'Market Center', 'Open To All']
  return [...PUBLISH_LEVELS]
}

export const TEAM_PUBLISH_LEVELS = ['Real Estate Team', 'Real Estate Group', 'Partnered Team'] as const

export function isTeamLevel(level: string): level is (typeof TEAM_PUBLISH_LEVELS)[number] {
  return (TEAM_PUBLISH_LEVELS as readonly string[]).includes(level)
}
