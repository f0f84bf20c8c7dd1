import { type CalendarDate, parseDate } from '@internationalized/date'
import { FLEXI_TIME, messages, TIME_SLOTS, UpdateScheduleBody } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { FormPage } from '../layout/form-page.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { openHouseDetailsQueryOptions, useUpdateScheduleMutation } from './queries.ts'
import { tomorrow } from './schedule-values.ts'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/updateSchedule')

type Values = { scheduledDate: CalendarDate | null; scheduledStartTime: string; scheduledEndTime: string }

/**
 * SPEC /openhouses/schedule/{id}/updateSchedule: the claiming agent fixes a flexible date or time
 * (hourly slots only, no flexible options) and so claims the open house.
 */
export function UpdateSchedulePage() {
  const { openHouseId } = routeApi.useParams()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent } = useSessionInfo()
  const update = useUpdateScheduleMutation(agent?.id ?? 0, oh.id)
  const navigate = useNavigate()
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
      onError: (error) => form.showError(error, messages.scheduleUpdateFailed),
    })
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
