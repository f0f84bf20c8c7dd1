import {
  isSchedulerRole,
  messages,
  OPEN_HOUSE_CHANGED,
  type OpenHouseDetails,
  type Property,
  PublishLevel,
  SaveOpenHouseBody,
} from '@porchlight/shared'
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ApiError, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { openHouseLimitReached } from '../../ui/action-bar.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { copyLabel, may } from './permissions.ts'
import { openHouseDetailsQueryOptions, useSaveOpenHouseMutation } from './queries.ts'
import { ScheduleFields } from './schedule-fields.tsx'
import {
  browserTimeZone,
  emptyScheduleValues,
  rememberTimes,
  SCHEDULE_REQUIRED_MESSAGES,
  scheduleCrossErrors,
  scheduleInput,
  scheduleValues,
} from './schedule-values.ts'
import '../../ui/card-list.css'
import './open-houses.css'

type ScheduleContext =
  | { mode: 'new'; property: Property; reInventoryId?: number }
  | { mode: 'edit'; openHouse: OpenHouseDetails }

/**
 * SPEC /openhouses/schedule (new) and /openhouses/schedule/{id}/edit. Once another agent hosts it,
 * the date, times and publish level stay as they are (SPEC §4). Saving goes to the publish
 * confirmation.
 */
export function SchedulePage(context: ScheduleContext) {
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const role = agent?.reAgentRole ?? 'Real Estate Agent'
  const editing = context.mode === 'edit' ? context.openHouse : null
  const property = editing ? editing.reProperty : context.mode === 'new' ? context.property : null
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(agentId))
  const save = useSaveOpenHouseMutation(agentId, editing?.id)
  const navigate = useNavigate()
  const choosesListingAgent = !editing && isSchedulerRole(role)
  // A property from the agent's own inventory (the inventory's Schedule Open House) stays its own:
  // an Admin Team Member schedules it for itself, a Team Lead cannot schedule it (SPEC §5).
  const ownProperty = context.mode === 'new' && context.reInventoryId !== undefined
  const form = useForm(() =>
    editing
      ? scheduleValues(editing)
      : {
          ...emptyScheduleValues(),
          listingREAgentId: choosesListingAgent && ownProperty ? String(agentId) : '',
        },
  )
  const timeZone = editing?.openHouseTimezone ?? browserTimeZone()
  const datesLocked = Boolean(
    editing && editing.hostingREAgentId !== null && editing.publishLevel !== 'Hosting Myself',
  )
  // The listing agent's plan counts the open house: scheduling for a teammate uses theirs.
  const forSelf = !choosesListingAgent || form.values.listingREAgentId === String(agentId)
  const limitReached = !editing && forSelf && openHouseLimitReached(utilization)
  const [propertyRefused, setPropertyRefused] = useState<string | null>(null)
  const queryClient = useQueryClient()
  // The open house as the form was filled from, and so the version this edit is made on; after a 409
  // STALE, the one the agent has now been shown. Kept apart from `editing`, which live events refresh.
  const [loaded, setLoaded] = useState(editing)
  const [changedMeanwhile, setChangedMeanwhile] = useState<string[] | null>(null)

  /** Someone changed the open house while this form was open: say what, keep what the agent typed. */
  const showChangedMeanwhile = async () => {
    if (!loaded) return
    const current = await queryClient.fetchQuery({
      ...openHouseDetailsQueryOptions(loaded.id),
      staleTime: 0,
    })
    setChangedMeanwhile(changedFields(loaded, current))
    setLoaded(current)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!property) return
    const cross = scheduleCrossErrors(form.values, { choosesListingAgent, datesLocked })
    const input = scheduleInput(form.values, {
      rePropertyId: property.id,
      reInventoryId: editing ? editing.reInventoryId : context.mode === 'new' ? context.reInventoryId : null,
      timeZone,
    })
    // A missing date or listing agent must fail the shared schema too, so every message shows at once.
    if (cross.scheduledDate) input.scheduledDate = 'missing'
    if (cross.listingREAgentId) input.listingREAgentId = 0
    if (!choosesListingAgent) input.listingREAgentId = undefined
    const body = form.parse(SaveOpenHouseBody, input, SCHEDULE_REQUIRED_MESSAGES, cross)
    if (!body) return
    setPropertyRefused(null)
    setChangedMeanwhile(null)
    save.mutate(
      { body: input as SaveOpenHouseBody, version: loaded?.updatedDate },
      {
        onSuccess: (saved) => {
          rememberTimes(saved.scheduledStartTime, saved.scheduledEndTime)
          void navigate({
            to: '/openhouses/schedule/$openHouseId/confirm',
            params: { openHouseId: saved.id },
            search: {
              rePropertyId: saved.rePropertyId,
              reAgentId: saved.listingREAgentId,
              publish: PublishLevel.safeParse(saved.publishLevel).data,
              method: editing ? 'edit' : 'new',
            },
          })
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'STALE') {
            void showChangedMeanwhile()
            return
          }
          const refused = error instanceof ApiError ? error.fieldError('rePropertyId') : undefined
          if (refused && error instanceof ApiError) {
            // Not a field of this form: said once, with the way out, beside the other messages if any.
            setPropertyRefused(refused)
            const others = error.fieldErrors.filter((e) => e.field !== 'rePropertyId')
            if (others.length > 0) {
              form.showError({ fieldErrors: others, message: '' })
            }
            return
          }
          form.showError(formFailure(error, messages.openHouseAlreadyScheduled))
        },
      },
    )
  }

  if (editing && !may(editing, 'edit')) {
    return (
      <FormPage title="Edit Open House">
        <Alert
          tone="error"
          title="Only the listing agent, or the teammate who scheduled it for them, can edit this open house."
        />
      </FormPage>
    )
  }
  if (choosesListingAgent && ownProperty && role === 'Team Lead') {
    return (
      <FormPage title="Schedule Open House" lede={property?.completePropertyAddress}>
        <Alert
          tone="error"
          title="This property is in your own inventory, so you can't schedule it for a teammate."
        >
          An open house you schedule is your teammate's. Add the property through Schedule Open House and
          choose the teammate on the next page: the property then joins their inventory.
        </Alert>
        <FormActions>
          <Link to="/openhouses" search={{ activeSection: 'reInventory' }} variant="button-secondary">
            Back
          </Link>
          <Link to="/openhouses/property" variant="button-primary">
            Add The Property For A Teammate
          </Link>
        </FormActions>
      </FormPage>
    )
  }
  if (editing?.openHouseCanceledFlag) {
    return (
      <FormPage title="Edit Open House">
        <Alert tone="error" title="This open house was canceled and can no longer be edited." />
        <p>
          <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }} variant="button-secondary">
            Back to Open Houses
          </Link>
        </p>
      </FormPage>
    )
  }

  const submitLabel = editing
    ? save.isPending
      ? 'Updating...'
      : 'Update'
    : save.isPending
      ? 'Submitting...'
      : 'Save'
  // A copy made with Clone says so: the agent edits a new open house, not the one it copied.
  const copy = editing ? copyLabel(editing) : null
  return (
    <FormPage
      title={copy ?? (editing ? 'Edit Open House' : 'Schedule Open House')}
      eyebrow={copy ? 'Edit Open House · a copy' : editing ? undefined : 'Schedule Open House · Step 2 of 2'}
      lede={property?.completePropertyAddress}
      wide
    >
      <Form
        ref={form.formRef}
        onSubmit={submit}
        aria-label={copy ?? (editing ? 'Edit Open House' : 'Schedule Open House')}
      >
        {limitReached && <Alert tone="error" title={messages.openHouseLimitReached} />}
        {datesLocked && (
          <Alert
            tone="info"
            title={`${editing?.hostingREAgentName ?? 'Another agent'} is hosting this open house.`}
          >
            Its date, times and publish level can no longer be changed.
          </Alert>
        )}
        {form.formError && <Alert tone="error" title={form.formError} />}
        {changedMeanwhile && (
          <Alert tone="error" title={OPEN_HOUSE_CHANGED}>
            {changedMeanwhile.length > 0 ? `Changed: ${changedMeanwhile.join(', ')}. ` : ''}
            Your changes are still in the form: check them, then save again to keep them.
          </Alert>
        )}
        {propertyRefused && (
          <Alert
            tone="error"
            title={propertyRefused}
            actions={
              <Link to="/openhouses/property" variant="button-secondary">
                Add The Property For Them
              </Link>
            }
          >
            A property from your own inventory can't be scheduled for someone else. Add the property for the
            listing agent through Schedule Open House; it then joins their inventory.
          </Alert>
        )}
        <ScheduleFields
          values={form.values}
          errors={form.errors}
          setValue={form.setValue}
          role={role}
          agentId={agentId}
          agentName={agent ? `${agent.reAgentFirstName} ${agent.reAgentLastName}` : ''}
          firmLicense={agent?.reAgentBrokerFirmLicense ?? ''}
          choosesListingAgent={choosesListingAgent}
          ownProperty={ownProperty}
          scheduledFor={editing && agentId !== editing.listingREAgentId ? editing.listingREAgentName : null}
          editing={Boolean(editing)}
          datesLocked={datesLocked}
          timeZone={timeZone}
        />
        <FormActions>
          <Link
            to="/openhouses"
            search={{ activeSection: editing ? 'upcomingOH' : 'reInventory' }}
            variant="button-secondary"
          >
            Cancel
          </Link>
          {limitReached ? (
            <DisabledButton variant="primary" reason={messages.upgradePlanToCreateOpenHouses}>
              {submitLabel}
            </DisabledButton>
          ) : (
            <Button type="submit" variant="primary" isPending={save.isPending}>
              {submitLabel}
            </Button>
          )}
        </FormActions>
      </Form>
    </FormPage>
  )
}

/** The fields an agent is told another agent changed meanwhile, in the words it reads. */
const WATCHED: Array<[keyof OpenHouseDetails, string]> = [
  ['scheduledDate', 'date'],
  ['scheduledStartTime', 'start time'],
  ['scheduledEndTime', 'end time'],
  ['hostingREAgentId', 'host'],
  ['publishLevel', 'publish level'],
  ['published', 'published'],
  ['openHouseInstructions', 'instructions'],
  ['openHouseFor', 'for sale or rent'],
  ['balloonsPutOutFlag', 'balloons'],
  ['snackServedFlag', 'snacks'],
  ['mealServedFlag', 'meal'],
  ['drinkServedFlag', 'drinks'],
  ['emailIdForSharingOHFeedback', 'feedback email'],
  ['autoCloneOpenHouseFlag', 'auto-clone'],
  ['openHouseCanceledFlag', 'canceled'],
]

function changedFields(before: OpenHouseDetails, after: OpenHouseDetails): string[] {
  return WATCHED.filter(([key]) => before[key] !== after[key]).map(([, label]) => label)
}
