import {
  type Agent,
  canBeCoTeamLead,
  messages,
  SaveTeamBody,
  TEAM_TYPES,
  type TeamDetails,
  UpdateTeamBody,
} from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { firmAgentsQueryOptions } from '../agents/queries.ts'
import { useCreateTeamMutation, useUpdateTeamMutation } from './queries.ts'
import './teams.css'

/** The co-lead select's key for "no co-lead" (a listbox key cannot be empty). */
const NO_CO_LEAD = 'none'

interface TeamValues extends Record<string, unknown> {
  reTeamName: string
  teamType: string
  /** An agent id as text, or '' for none. */
  reCoTeamLeadId: string
  reTeamActiveFlag: boolean
}

const fullName = (a: { reAgentFirstName: string; reAgentLastName: string }) =>
  `${a.reAgentFirstName} ${a.reAgentLastName}`

interface TeamFormProps {
  /** The signed-in agent: the team lead (SPEC §5 'team lead read-only'). */
  agent: Agent
  /** The team being edited; absent for a new team. */
  team?: TeamDetails
  /** A plan-limit text: Save is disabled with it (new teams only). */
  blockedReason?: string | null
}

/**
 * SPEC 'Team Details - New/Edit': team name and type required, the lead read-only (the agent), a
 * co-lead chosen from the verified agents of the same broker firm except the agent, and the active flag.
 * Saving goes back to /mystuff?activeSection=manageMyTeams.
 */
export function TeamForm({ agent, team, blockedReason }: TeamFormProps) {
  const editing = team !== undefined
  // The route loaded the roster already; an agent whose firm membership is not verified has none.
  const firmVerified = agent.firmMembershipStatus === 'verified'
  const roster = useQuery({
    ...firmAgentsQueryOptions(agent.reAgentBrokerFirmLicense),
    enabled: firmVerified,
  })
  const coLeads = (roster.data ?? []).filter(
    (candidate) => candidate.firmMembershipStatus === 'verified' && canBeCoTeamLead(agent, candidate),
  )
  const form = useForm<TeamValues>(() => ({
    reTeamName: team?.reTeam.reTeamName ?? '',
    teamType: team?.reTeam.teamType ?? '',
    reCoTeamLeadId: team?.reTeam.reCoTeamLeadId ? String(team.reTeam.reCoTeamLeadId) : '',
    reTeamActiveFlag: team?.reTeam.reTeamActiveFlag ?? true,
  }))
  const create = useCreateTeamMutation(agent.id)
  const update = useUpdateTeamMutation(agent.id, team?.reTeam.id ?? 0)
  const saving = editing ? update : create
  const navigate = useNavigate()
  const { values, setValue, errors } = form
  const lead = team ? team.reAgentTeamLeadDetails : agent

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (blockedReason) return
    const input = { ...values, reTeamActiveFlag: values.reTeamActiveFlag ? 'true' : 'false' }
    const parsed = form.parse(editing ? UpdateTeamBody : SaveTeamBody, input)
    if (!parsed) return
    // SPEC §3: the active flag travels as 'true'/'false'; an empty co-lead as null.
    const body = {
      reTeamName: parsed.reTeamName,
      teamType: parsed.teamType,
      reCoTeamLeadId: parsed.reCoTeamLeadId ?? null,
      reTeamActiveFlag: values.reTeamActiveFlag ? 'true' : 'false',
    } as const
    saving.mutate(body, {
      onSuccess: () => void navigate({ to: '/mystuff', search: { activeSection: 'manageMyTeams' } }),
      onError: (error) => form.showError(formFailure(error, messages.teamSaveFailed)),
    })
  }

  return (
    <FormPage
      title="Team Details - New/Edit"
      eyebrow={editing ? 'Edit team' : 'New team'}
      lede={
        editing
          ? 'Rename the team, change its type or co-lead, or mark it inactive.'
          : 'Name your team and choose its type. You lead it; a co-lead from your firm can manage members with you.'
      }
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Team Details">
        {blockedReason && <Alert tone="info" title={blockedReason} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        <TextField
          label="Team Name"
          name="reTeamName"
          isRequired
          value={values.reTeamName}
          onChange={(value) => setValue('reTeamName', value)}
          errorMessage={errors.reTeamName}
        />
        <Select
          label="Team Type"
          name="teamType"
          placeholder="Select a team type"
          isRequired
          value={values.teamType || null}
          onChange={(key) => setValue('teamType', key == null ? '' : String(key))}
          errorMessage={errors.teamType}
        >
          {TEAM_TYPES.map((type) => (
            <SelectItem key={type} id={type}>
              {type}
            </SelectItem>
          ))}
        </Select>
        <TextField
          label="Team Lead"
          isReadOnly
          value={fullName(lead)}
          description="The team lead is the agent who creates the team."
        />
        <Select
          label="Co-Team Lead"
          name="reCoTeamLeadId"
          value={values.reCoTeamLeadId || NO_CO_LEAD}
          onChange={(key) => setValue('reCoTeamLeadId', key == null || key === NO_CO_LEAD ? '' : String(key))}
          errorMessage={errors.reCoTeamLeadId}
          description={
            roster.isError
              ? "Your firm's agents couldn't be loaded. Please reload the page."
              : coLeads.length === 0
                ? 'No other verified agent of your broker firm yet.'
                : 'Optional: another verified agent of your broker firm.'
          }
        >
          <SelectItem id={NO_CO_LEAD}>No co-lead</SelectItem>
          {coLeads.map((candidate) => (
            <SelectItem key={candidate.id} id={String(candidate.id)} textValue={fullName(candidate)}>
              {fullName(candidate)} · {candidate.reAgentRole}
            </SelectItem>
          ))}
        </Select>
        <Checkbox
          isSelected={values.reTeamActiveFlag}
          onChange={(selected) => setValue('reTeamActiveFlag', selected)}
        >
          Active team
        </Checkbox>
        <FormActions>
          <Link to="/mystuff" search={{ activeSection: 'manageMyTeams' }} variant="button-secondary">
            Cancel
          </Link>
          {blockedReason ? (
            <DisabledButton variant="primary" reason={blockedReason}>
              Save
            </DisabledButton>
          ) : editing ? (
            <Button type="submit" variant="primary" isPending={saving.isPending}>
              {saving.isPending ? 'Updating...' : 'Update'}
            </Button>
          ) : (
            <Button type="submit" variant="primary" isPending={saving.isPending}>
              {saving.isPending ? 'Submitting...' : 'Save'}
            </Button>
          )}
        </FormActions>
      </Form>
    </FormPage>
  )
}
