import {
  AddTeamMemberBody,
  canBeTeamMember,
  canManageTeamMembers,
  messages,
  withinTeamMemberLimit,
} from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useForm } from '../../ui/use-form.ts'
import { firmAgentsQueryOptions } from '../agents/queries.ts'
import { activePlanQueryOptions } from '../pricing/queries.ts'
import { setFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { teamMembersQueryOptions, useAddTeamMemberMutation } from './queries.ts'
import './teams.css'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/myteams/$reTeamId/manageMembers/new')

const AGENT_REQUIRED = 'Choose a real estate agent'

/**
 * SPEC 'Add Team Member': one verified agent of the same broker firm (by firm license) who is not on the
 * team yet: its members (invited or accepted), lead and co-lead are left out of the choice. Saving
 * invites the agent, who joins once it accepts; Cancel and Save go back to the member list.
 */
export function AddMemberPage() {
  const { reTeamId } = routeApi.useParams()
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const { data: team } = useSuspenseQuery(teamMembersQueryOptions(reTeamId))
  // The route loaded the roster already; an agent whose firm membership is not verified gets none.
  const firmVerified = agent?.firmMembershipStatus === 'verified'
  const roster = useQuery({
    ...firmAgentsQueryOptions(agent?.reAgentBrokerFirmLicense ?? ''),
    enabled: firmVerified,
  })
  const isLead = team.reTeam.reTeamLeadId === agentId
  const { data: activePlan } = useQuery({ ...activePlanQueryOptions(agentId), enabled: isLead })
  const form = useForm({ reAgentId: '' })
  const add = useAddTeamMemberMutation(agentId)
  const navigate = useNavigate()
  if (!agent) return null

  const list = team.reTeamMemberWithSupportingDetailsList
  const onTeam = new Set([
    team.reTeam.reTeamLeadId,
    team.reTeam.reCoTeamLeadId,
    ...list.map((m) => m.realEstateAgent.id),
  ])
  const candidates = (roster.data ?? []).filter(
    (c) => c.firmMembershipStatus === 'verified' && canBeTeamMember(agent, c) && !onTeam.has(c.id),
  )
  const limit = isLead ? activePlan?.plan.numberOfTeamMembersPerTeam : undefined
  const blocked = !canManageTeamMembers(agentId, team.reTeam)
    ? 'Only the team lead or co-lead can add members.'
    : !firmVerified
      ? messages.firmNotVerified
      : limit !== undefined && !withinTeamMemberLimit(list.length, limit)
        ? messages.teamMemberLimitReached
        : null
  const backToList = { to: '/mystuff/myteams/$reTeamId/manageMembers', params: { reTeamId } } as const

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (blocked) return
    const body = form.parse(
      AddTeamMemberBody,
      { reTeamId, reAgentId: form.values.reAgentId },
      {
        reAgentId: AGENT_REQUIRED,
      },
    )
    if (!body) return
    const chosen = candidates.find((c) => c.id === body.reAgentId)
    const name = chosen ? `${chosen.reAgentFirstName} ${chosen.reAgentLastName}` : 'The agent'
    add.mutate(body, {
      onSuccess: () => {
        setFlash(`${name} was invited to the team and will join once they accept the invitation.`)
        void navigate(backToList)
      },
      onError: (error) =>
        form.showError(formFailure(error, "Couldn't add the team member. Please try again.")),
    })
  }

  return (
    <FormPage
      title="Add Team Member"
      eyebrow={`${team.reTeam.reTeamName} - ${team.reTeam.teamType}`}
      lede="Choose a verified agent of your broker firm. We email them an invitation; they join the team once they accept it."
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Add Team Member">
        {blocked && <Alert tone="info" title={blocked} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        {roster.isError ? (
          <Alert
            tone="error"
            title={errorMessage(roster.error, "Couldn't load your firm's agents.")}
            actions={<Button onPress={() => void roster.refetch()}>Try again</Button>}
          />
        ) : firmVerified && roster.isPending ? (
          <Spinner label="Loading your firm's agents…" />
        ) : candidates.length === 0 ? (
          <p className="empty-state">
            Every verified agent of your broker firm is already on this team or invited. Agents waiting for
            firm approval show here once a Team Lead or Admin Team Member of your firm approves them.
          </p>
        ) : (
          <Select
            label="Real Estate Agent"
            name="reAgentId"
            placeholder="Select an agent"
            isRequired
            value={form.values.reAgentId || null}
            onChange={(key) => form.setValue('reAgentId', key == null ? '' : String(key))}
            errorMessage={form.errors.reAgentId}
            description={`${candidates.length} verified ${candidates.length === 1 ? 'agent' : 'agents'} of ${agent.reAgentBrokerFirmName} not on the team yet.`}
          >
            {candidates.map((c) => (
              <SelectItem
                key={c.id}
                id={String(c.id)}
                textValue={`${c.reAgentFirstName} ${c.reAgentLastName}`}
              >
                {c.reAgentFirstName} {c.reAgentLastName} · {c.reAgentRole}
              </SelectItem>
            ))}
          </Select>
        )}
        <FormActions>
          <Link {...backToList} variant="button-secondary">
            Cancel
          </Link>
          {blocked || candidates.length === 0 ? (
            <DisabledButton variant="primary" reason={blocked ?? 'There is no agent left to invite.'}>
              Save
            </DisabledButton>
          ) : (
            <Button type="submit" variant="primary" isPending={add.isPending}>
              {add.isPending ? 'Submitting...' : 'Save'}
            </Button>
          )}
        </FormActions>
      </Form>
    </FormPage>
  )
}
