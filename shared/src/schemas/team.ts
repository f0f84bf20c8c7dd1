import { z } from 'zod'
import { TEAM_TYPES, TeamType } from '../enums.ts'
import { INVITATION_STATUSES } from '../rules/policy.ts'
import { Flag, Id, RequiredText } from './common.ts'

// Teams and team members (SPEC §3 "Team", "Team member"). The client may send reTeamCode,
// reTeamLeadId, createdByREAgentId, reAgentCurrentFlag, addedByREAgentId and the dates: the server
// sets them all (the code is the fixed placeholder, the lead is the caller), so the schemas drop them.

/** The co-lead choice: an agent id, or '' / null for none. */
const CoTeamLeadId = z.union([z.literal('').transform(() => null), z.null(), Id])

const teamShape = {
  reTeamName: RequiredText('Team name', 120),
  teamType: z.enum(TEAM_TYPES, {
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? 'Team type is required'
        : 'Choose one of the team types',
  }),
}

/** POST saveRETeam: a new team is active unless the form says otherwise. */
export const SaveTeamBody = z.object({
  ...teamShape,
  reCoTeamLeadId: CoTeamLeadId.optional().transform((v) => v ?? null),
  reTeamActiveFlag: Flag.default(true),
})
export type SaveTeamBody = z.input<typeof SaveTeamBody>

/** PATCH saveRETeam/{reTeamId}: an omitted co-lead or active flag keeps its current value. */
export const UpdateTeamBody = z.object({
  ...teamShape,
  reCoTeamLeadId: CoTeamLeadId.optional(),
  reTeamActiveFlag: Flag.optional(),
})
export type UpdateTeamBody = z.input<typeof UpdateTeamBody>

export const Team = z.object({
  id: z.number().int(),
  reTeamName: z.string(),
  reTeamCode: z.string(),
  teamType: TeamType,
  reTeamLeadId: z.number().int(),
  reCoTeamLeadId: z.number().int().nullable(),
  createdByREAgentId: z.number().int(),
  reTeamActiveFlag: z.boolean(),
  /** The caller's own invitation to this team, when it is a member rather than its lead or co-lead. */
  invitationStatus: z.enum(INVITATION_STATUSES).nullable().optional(),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type Team = z.infer<typeof Team>

/** getRETeamByREAgentIdATeamType answers only this much (or null). */
export const TeamRef = z.object({ id: z.number().int(), reTeamName: z.string() })
export type TeamRef = z.infer<typeof TeamRef>

/** The lead and co-lead as the team detail shows them (with the broker firm name). */
export const TeamLeadDetails = z.object({
  id: z.number().int(),
  reAgentFirstName: z.string(),
  reAgentLastName: z.string(),
  reAgentEmailId: z.string(),
  reAgentPhoneNumber: z.string(),
  reAgentRole: z.string(),
  reAgentBrokerFirmName: z.string(),
  reAgentBrokerFirmLicense: z.string(),
})
export type TeamLeadDetails = z.infer<typeof TeamLeadDetails>

export const TeamDetails = z.object({
  reTeam: Team,
  reAgentTeamLeadDetails: TeamLeadDetails,
  reAgentCoTeamLeadDetails: TeamLeadDetails.nullable(),
  /** The team lead's user account id. */
  userProfileId: z.number().int(),
})
export type TeamDetails = z.infer<typeof TeamDetails>

export const AddTeamMemberBody = z.object({
  reTeamId: Id,
  reAgentId: Id,
})
export type AddTeamMemberBody = z.input<typeof AddTeamMemberBody>

export const TeamMember = z.object({
  id: z.number().int(),
  reTeamId: z.number().int(),
  reAgentId: z.number().int(),
  reAgentCurrentFlag: z.boolean(),
  addedByREAgentId: z.number().int().nullable(),
  /** A member counts once it accepted the invitation (the card reads "Invited" until then). */
  invitationStatus: z.enum(INVITATION_STATUSES),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type TeamMember = z.infer<typeof TeamMember>

/** A member card: name, phone and email (SPEC §2); contact data once the member accepted. */
export const TeamMemberWithSupportingDetails = z.object({
  reTeamMemberId: z.number().int(),
  invitationStatus: z.enum(INVITATION_STATUSES),
  realEstateAgent: z.object({
    id: z.number().int(),
    reAgentFirstName: z.string(),
    reAgentLastName: z.string(),
    reAgentPhoneNumber: z.string().nullable(),
    reAgentEmailId: z.string().nullable(),
  }),
})
export type TeamMemberWithSupportingDetails = z.infer<typeof TeamMemberWithSupportingDetails>

export const TeamMembersList = z.object({
  reTeam: Team,
  reTeamMemberWithSupportingDetailsList: z.array(TeamMemberWithSupportingDetails),
})
export type TeamMembersList = z.infer<typeof TeamMembersList>
