import {
  BEST_TIMES_TO_CONTACT,
  CURRENT_HOUSE_STATUSES,
  HEARD_ABOUT_THIS_OPEN_HOUSE,
  HOME_BUYING_TIMELINES,
  messages,
  PROSPECT_CHOICE_FIELDS,
  PROSPECT_NOTIFICATIONS,
  PROSPECT_TEXT_FIELDS,
  type Prospect,
  SaveProspectBody,
} from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { setFlash } from '../session/flash.ts'
import { useSaveProspectMutation } from './queries.ts'

const TEXT_FIELDS = PROSPECT_TEXT_FIELDS
const CHOICE_FIELDS = PROSPECT_CHOICE_FIELDS
type Field = (typeof TEXT_FIELDS)[number] | (typeof CHOICE_FIELDS)[number]
type Values = Record<Field, string>

function initialValues(prospect?: Prospect): Values {
  const values = {} as Values
  for (const field of [...TEXT_FIELDS, ...CHOICE_FIELDS]) {
    const value = prospect?.[field]
    values[field] = value === null || value === undefined ? '' : String(value)
  }
  return values
}

interface ProspectFormPageProps {
  prospect?: Prospect
  openHouseId?: number
  rePropertyId?: number
}

/**
 * SPEC 'Prospect Details - New/Edit' (/prospects/new, /prospects/{id}/edit). Saved with an open house,
 * the prospect is added as its attendee and the agent goes to that open house's manage page.
 */
export function ProspectFormPage({ prospect, openHouseId, rePropertyId }: ProspectFormPageProps) {
  const form = useForm(() => initialValues(prospect))
  const save = useSaveProspectMutation(prospect?.id)
  const navigate = useNavigate()
  const isEdit = prospect !== undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const now = new Date().toISOString()
    const { workingWithREAgentFlag, ...rest } = form.values
    const body = form.parse(SaveProspectBody, {
      ...rest,
      // No choice is "not said" (decision 038): on an edit it clears an answer given before.
      workingWithREAgentFlag: workingWithREAgentFlag || null,
      openHouseId: openHouseId ?? null,
      createdDate: now,
      updatedDate: now,
    })
    if (!body) return
    save.mutate(
      {
        ...rest,
        workingWithREAgentFlag: workingWithREAgentFlag
          ? workingWithREAgentFlag === 'true'
            ? 'true'
            : 'false'
          : null,
        openHouseId: openHouseId ?? null,
        createdDate: now,
        updatedDate: now,
      } as SaveProspectBody,
      {
        onSuccess: (saved) => {
          const name = `${saved.prospectFirstName} ${saved.prospectLastName}`
          if (openHouseId) {
            setFlash(`${name} was saved and added to the open house as an attendee.`)
            void navigate({
              to: '/openhouses/schedule/$openHouseId/manage',
              params: { openHouseId },
              search: { rePropertyId },
            })
          } else {
            setFlash(`${name} was saved.`)
            void navigate({ to: '/prospects' })
          }
        },
        onError: (error) => form.showError(formFailure(error, messages.propertySaveFailed)),
      },
    )
  }

  const text = (name: (typeof TEXT_FIELDS)[number]) => ({
    name,
    value: form.values[name],
    onChange: (value: string) => form.setValue(name, value),
    errorMessage: form.errors[name],
  })
  const choice = (
    name: (typeof CHOICE_FIELDS)[number],
    label: string,
    options: readonly (string | readonly [string, string])[],
  ) => (
    <Select
      label={label}
      name={name}
      placeholder="Choose…"
      value={form.values[name] || null}
      onChange={(key) => form.setValue(name, key == null ? '' : String(key))}
      errorMessage={form.errors[name]}
    >
      {options.map((option) => {
        const [id, text] = typeof option === 'string' ? [option, option] : option
        return (
          <SelectItem key={id} id={id}>
            {text}
          </SelectItem>
        )
      })}
    </Select>
  )

  const cancel =
    openHouseId && rePropertyId ? (
      <Link to="/prospects/search" search={{ openHouseId, rePropertyId }} variant="button-secondary">
        Cancel
      </Link>
    ) : (
      <Link to="/prospects" variant="button-secondary">
        Cancel
      </Link>
    )

  return (
    <FormPage title="Prospect Details - New/Edit" eyebrow={isEdit ? 'Edit prospect' : 'New prospect'} wide>
      <Form ref={form.formRef} onSubmit={submit} aria-label="Prospect Details">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <fieldset className="form__section">
          <legend className="form__legend">Contact</legend>
          <div className="form__grid">
            <TextField label="First Name" autoComplete="off" isRequired {...text('prospectFirstName')} />
            <TextField label="Middle Name" autoComplete="off" {...text('prospectMiddleName')} />
            <TextField label="Last Name" autoComplete="off" isRequired {...text('prospectLastName')} />
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              isRequired
              {...text('prospectEmailId')}
            />
            <TextField
              label="Phone"
              type="tel"
              autoComplete="off"
              isRequired
              {...text('prospectPhoneNumber')}
            />
          </div>
        </fieldset>
        <fieldset className="form__section">
          <legend className="form__legend">Address</legend>
          <div className="form__grid">
            <TextField label="Address Line 1" {...text('prospectAddress1')} />
            <TextField label="Address Line 2" {...text('prospectAddress2')} />
            <TextField label="City" {...text('prospectCity')} />
            <TextField label="State" {...text('prospectState')} />
            <TextField label="Zip Code" {...text('prospectZipCode')} />
            <TextField label="Zip+4" inputMode="numeric" maxLength={4} {...text('prospectZipPlus4')} />
            <TextField label="County" {...text('prospectCounty')} />
            <TextField
              label="Country"
              isReadOnly
              description="Filled by the address lookup."
              {...text('prospectCountry')}
            />
          </div>
        </fieldset>
        <fieldset className="form__section">
          <legend className="form__legend">Home search</legend>
          <div className="form__grid">
            {choice('currentHouseStatus', 'Current House Status', CURRENT_HOUSE_STATUSES)}
            {choice('homeBuyingTimelines', 'Home Buying Timeline', HOME_BUYING_TIMELINES)}
            {choice('workingWithREAgentFlag', 'Working With A Realtor', [
              ['true', 'Yes'],
              ['false', 'No'],
            ])}
            {choice('bestTimeToContact', 'Best Time To Contact', BEST_TIMES_TO_CONTACT)}
            {choice('heardAboutThisOpenHouse', 'Heard About This Open House', HEARD_ABOUT_THIS_OPEN_HOUSE)}
            {choice('prospectNotification', 'Prospect Notification', PROSPECT_NOTIFICATIONS)}
          </div>
        </fieldset>
        <FormActions>
          {cancel}
          <Button type="submit" variant="primary" isPending={save.isPending}>
            {isEdit ? (save.isPending ? 'Updating...' : 'Update') : save.isPending ? 'Submitting...' : 'Save'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
