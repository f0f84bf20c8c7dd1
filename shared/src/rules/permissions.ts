// Who may do and see what (SPEC §5, §6), as pure functions: the server enforces them and the web
// shows the same buttons, tabs and sections. Relations between agents live in policy.ts.

import { leadsTeam, mayJoinTeamOf } from './policy.ts'

interface TeamLeads {
  reTeamLeadId: number
  reCoTeamLeadId: number | null
}

interface FirmAgent {
  id: number
  reAgentBrokerFirmLicense: string
  firmMembershipStatus: string
}

const facts = (a: FirmAgent) => ({
  id: a.id,
  firmLicense: a.reAgentBrokerFirmLicense,
  firmVerified: a.firmMembershipStatus === 'verified',
})

/** Only the Team Lead role sees Manage My Teams and creates teams. */
export function canManageMyTeams(role: string): boolean {
  return role === 'Team Lead'
}

/** Only the Team Lead role sees the dashboard's My Team Summary. */
export function canSeeTeamSummary(role: string): boolean {
  return role === 'Team Lead'
}

/** The Team Lead role does not see the Search Open Houses tab. */
export function canSeeSearchOpenHouses(role: string): boolean {
  return role !== 'Team Lead'
}

/** Team Edit: the team's lead only (the policy's mayOnTeam 'edit'). */
export function canEditTeam(agentId: number, team: TeamLeads): boolean {
  return leadsTeam(agentId, team) === 'lead'
}

/** Members (add, remove): the team's lead or co-lead (the policy's mayOnTeam 'manageMembers'). */
export function canManageTeamMembers(agentId: number, team: TeamLeads): boolean {
  return leadsTeam(agentId, team) !== null
}

/** The co-lead is another verified agent of the lead's broker firm; the choice excludes the lead. */
export function canBeCoTeamLead(lead: FirmAgent, candidate: FirmAgent): boolean {
  return candidate.id !== lead.id && mayJoinTeamOf(facts(lead), facts(candidate))
}

/** Members are chosen from verified agents of the lead's broker firm (by firm license). */
export function canBeTeamMember(lead: FirmAgent, candidate: FirmAgent): boolean {
  return mayJoinTeamOf(facts(lead), facts(candidate))
}

/** SPEC §5: a team may be created only while totalCreatedTeams < numberOfTeamsCreate. */
export function withinTeamLimit(totalCreatedTeams: number, numberOfTeamsCreate: number): boolean {
  return totalCreatedTeams < numberOfTeamsCreate
}

/** SPEC §5: adding a member is blocked once the count has reached numberOfTeamMembersPerTeam. */
export function withinTeamMemberLimit(memberCount: number, numberOfTeamMembersPerTeam: number): boolean {
  return memberCount < numberOfTeamMembersPerTeam
}
