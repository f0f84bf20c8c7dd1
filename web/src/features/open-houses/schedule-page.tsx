import {
  messages,
  type OpenHouseDetails,
  type Property,
  PublishLevel,
  SaveOpenHouseBody,
} from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { openHouseLimitReached } from '../dashboard/action-bar.tsx'
import { FormPage } from '../layout/form-page.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { useSaveOpenHouseMutation } from './queries.ts'
import { ScheduleFields } from './schedule-fields.tsx'
import {
  browserTimeZone,
  emptyScheduleValues,
  SCHEDULE_REQUIRED_MESSAGES,
  scheduleCrossErrors,
  scheduleInput,
  scheduleValues,
} from './schedule-values.ts'
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
  const form = useForm(() => (editing ? scheduleValues(editing) : emptyScheduleValues()))
  const timeZone = editing?.openHouseTimezone ?? browserTimeZone()
  const datesLocked = Boolean(
    editing && editing.hostingREAgentId !== null && editing.publishLevel !== 'Hosting Myself',
  )
  const choosesListingAgent = !editing && (role === 'Team Lead' || role === 'Admin Team Member')
  const limitReached = !editing && openHouseLimitReached(utilization)

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
    save.mutate(input as SaveOpenHouseBody, {
      onSuccess: (saved) =>
        void navigate({
          to: '/openhouses/schedule/$openHouseId/confirm',
          params: { openHouseId: saved.id },
          search: {
            rePropertyId: saved.rePropertyId,
            reAgentId: saved.listingREAgentId,
            publish: PublishLevel.safeParse(saved.publishLevel).data,
            method: editing ? 'edit' : 'new',
          },
        }),
      onError: (error) => form.showError(error, messages.openHouseAlreadyScheduled),
    })
  }

  if (editing && editing.listingREAgentId !== agentId) {
    return (
      <FormPage title="Edit Open House">
        <Alert tone="error" title="Only the listing agent can edit this open house." />
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
  return (
    <FormPage
      title={editing ? 'Edit Open House' : 'Schedule Open House'}
      eyebrow={editing ? undefined : 'Schedule Open House · Step 2 of 2'}
      lede={property?.completePropertyAddress}
      wide
    >
      <Form
        ref={form.formRef}
        onSubmit={submit}
        aria-label={editing ? 'Edit Open House' : 'Schedule Open House'}
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
        <ScheduleFields
          values={form.values}
          errors={form.errors}
          setValue={form.setValue}
          role={role}
          agentId={agentId}
          firmLicense={agent?.reAgentBrokerFirmLicense ?? ''}
          choosesListingAgent={choosesListingAgent}
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
