import { type CalendarDate, parseDate } from '@internationalized/date'
import {
  FLEXI_TIME,
  messages,
  needsScheduleOnClaim,
  TIME_SLOTS,
  UpdateScheduleBody,
} from '@porchlight/shared'
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ApiError, errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { setFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import {
  openHouseDetailsQueryOptions,
  openHouseKeys,
  useClaimMutation,
  useUpdateScheduleMutation,
} from './queries.ts'
import { tomorrow } from './schedule-values.ts'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/updateSchedule')

type Values = { scheduledDate: CalendarDate | null; scheduledStartTime: string; scheduledEndTime: string }

/**
 * SPEC /openhouses/schedule/{id}/updateSchedule: the claiming agent fixes a flexible date or time
 * (hourly slots only, no flexible options) and so claims the open house. When the listing agent has
 * fixed the date and time meanwhile (409 SCHEDULE_FIXED), the page says so and offers the plain claim.
 */
export function UpdateSchedulePage() {
  const { openHouseId } = routeApi.useParams()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent } = useSessionInfo()
  const update = useUpdateScheduleMutation(agent?.id ?? 0, oh.id)
  const claim = useClaimMutation(agent?.id ?? 0)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  // Arriving at an open house whose date and time are already fixed: nothing is left to pick.
  const [fixed, setFixed] = useState<string | null>(() =>
    needsScheduleOnClaim(oh) ? null : messages.scheduleFixed,
  )
  const form = useForm<Values>(() => ({
    scheduledDate: oh.scheduledDate ? parseDate(oh.scheduledDate.slice(0, 10)) : null,
    scheduledStartTime: oh.scheduledStartTime === FLEXI_TIME ? '' : oh.scheduledStartTime,
    scheduledEndTime: oh.scheduledEndTime === FLEXI_TIME ? '' : oh.scheduledEndTime,
  }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const input = {
      scheduledDate: form.values.scheduledDate?.toString(),
      scheduledStartTime: form.values.scheduledStartTime || undefined,
      scheduledEndTime: form.values.scheduledEndTime || undefined,
      openHouseTimezone: oh.openHouseTimezone,
    }
    const body = form.parse(UpdateScheduleBody, input, {
      scheduledDate: 'Date is required',
      scheduledStartTime: 'Start time is required',
      scheduledEndTime: 'End time is required',
    })
    if (!body) return
    update.mutate(input as UpdateScheduleBody, {
      onSuccess: () =>
        void navigate({
          to: '/openhouses/schedule/$openHouseId/updateScheduleConfirm',
          params: { openHouseId },
        }),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'SCHEDULE_FIXED') {
          setFixed(error.message)
          // Show the date and time the listing agent fixed.
          void queryClient.invalidateQueries({ queryKey: openHouseKeys.details(oh.id) })
          return
        }
        form.showError(formFailure(error, messages.scheduleUpdateFailed))
      },
    })
  }

  const claimAsScheduled = () =>
    claim.mutate(oh.id, {
      onSuccess: () => {
        setFlash(messages.openHouseClaimed)
        void navigate({ to: '/openhouses', search: { activeSection: 'upcomingOH' } })
      },
    })

  if (fixed) {
    return (
      <FormPage title="Update Schedule" lede={oh.reProperty.completePropertyAddress}>
        <Alert tone="info" title={fixed}>
          It takes place on {scheduleDateText(oh)}, {scheduleTimeText(oh)}.
        </Alert>
        {claim.isError && <Alert tone="error" title={errorMessage(claim.error, messages.claimFailed)} />}
        <FormActions>
          <Link to="/openhouses" search={{ activeSection: 'searchOH' }} variant="button-secondary">
            Cancel
          </Link>
          <Button variant="primary" onPress={claimAsScheduled} isPending={claim.isPending}>
            {claim.isPending ? 'Claiming...' : 'Claim As Scheduled'}
          </Button>
        </FormActions>
      </FormPage>
    )
  }

  const slot = (name: 'scheduledStartTime' | 'scheduledEndTime', label: string) => (
    <Select
      label={label}
      name={name}
      placeholder={`Select ${label.toLowerCase()}`}
      isRequired
      value={form.values[name] || null}
      onChange={(key) => form.setValue(name, key == null ? '' : String(key))}
      errorMessage={form.errors[name]}
    >
      {TIME_SLOTS.map((time) => (
        <SelectItem key={time} id={time}>
          {time}
        </SelectItem>
      ))}
    </Select>
  )

  return (
    <FormPage
      title="Update Schedule"
      lede={`${oh.reProperty.completePropertyAddress}. Pick the date and time you will host it; saving claims the open house for you.`}
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Update Schedule">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <DatePicker
          label="Date"
          name="scheduledDate"
          isRequired
          description="The earliest date is tomorrow."
          minValue={tomorrow()}
          value={form.values.scheduledDate}
          onChange={(date) => form.setValue('scheduledDate', date)}
          errorMessage={form.errors.scheduledDate}
        />
        <div className="form__grid">
          {slot('scheduledStartTime', 'Start Time')}
          {slot('scheduledEndTime', 'End Time')}
        </div>
        <TextField label="Time Zone" isReadOnly value={oh.openHouseTimezone} />
        <FormActions>
          <Link to="/openhouses" search={{ activeSection: 'searchOH' }} variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
