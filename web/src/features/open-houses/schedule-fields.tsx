import {
  FLEXI_DATE,
  INSTRUCTIONS_LIMIT,
  OPEN_HOUSE_FOR,
  publishLevelsFor,
  SCHEDULE_TIMES,
} from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextArea } from '../../ui/TextArea.tsx'
import { TextField } from '../../ui/TextField.tsx'
import type { FieldErrors } from '../../ui/use-form.ts'
import { firmAgentsQueryOptions } from '../agents/queries.ts'
import { type ScheduleFormValues, todayDate, tomorrow } from './schedule-values.ts'

type Field = Extract<keyof ScheduleFormValues, string>

interface ScheduleFieldsProps {
  values: ScheduleFormValues
  errors: FieldErrors<ScheduleFormValues>
  setValue: <K extends Field>(name: K, value: ScheduleFormValues[K]) => void
  role: string
  agentId: number
  firmLicense: string
  /** Team Lead and Admin Team Member choose the listing agent (SPEC §5). */
  choosesListingAgent: boolean
  /** On edit the time zone is the open house's own, not the browser's. */
  editing: boolean
  /** Hosted by another agent: date, times and publish level are fixed (SPEC §4). */
  datesLocked: boolean
  timeZone: string
}

const FLAGS = [
  ['balloonsPutOutFlag', 'Balloons put out'],
  ['snackServedFlag', 'Snacks served'],
  ['mealServedFlag', 'Meal served'],
  ['drinkServedFlag', 'Drinks served'],
] as const

/** Every field of the schedule form (SPEC §3 open house, §5 schedule rules). */
export function ScheduleFields(props: ScheduleFieldsProps) {
  const { values, errors, setValue, role, datesLocked, timeZone } = props
  const text = (name: 'emailIdForSharingOHFeedback' | 'mlsId' | 'listingURL') => ({
    name,
    value: values[name],
    onChange: (value: string) => setValue(name, value),
    errorMessage: errors[name],
  })
  const select = (name: 'openHouseFor' | 'scheduledStartTime' | 'scheduledEndTime' | 'publishLevel') => ({
    name,
    value: values[name] || null,
    onChange: (key: unknown) => setValue(name, key == null ? '' : String(key)),
    errorMessage: errors[name],
  })
  const remaining = INSTRUCTIONS_LIMIT - values.openHouseInstructions.length
  const levels = publishLevelsFor(role)

  return (
    <>
      {props.choosesListingAgent && (
        <fieldset className="form__section">
          <legend className="form__legend">Listing agent</legend>
          <div className="form__grid">
            <ListingAgentSelect {...props} />
          </div>
        </fieldset>
      )}

      <fieldset className="form__section">
        <legend className="form__legend">When</legend>
        <div className="form__grid">
          <Select label="Open House For" placeholder="Sale or Rent" isRequired {...select('openHouseFor')}>
            {OPEN_HOUSE_FOR.map((value) => (
              <SelectItem key={value} id={value}>
                {value}
              </SelectItem>
            ))}
          </Select>
          <div className="schedule__date">
            <DatePicker
              label="Date"
              name="scheduledDate"
              description={
                datesLocked ? 'Fixed: another agent hosts this open house.' : 'The earliest date is tomorrow.'
              }
              minValue={datesLocked ? undefined : tomorrow()}
              isDisabled={values.flexiDate || datesLocked}
              isRequired={!values.flexiDate}
              value={values.flexiDate ? null : values.scheduledDate}
              onChange={(date) => setValue('scheduledDate', date)}
              errorMessage={errors.scheduledDate}
            />
            <Checkbox
              isSelected={values.flexiDate}
              isDisabled={datesLocked}
              onChange={(selected) => setValue('flexiDate', selected)}
            >
              {FLEXI_DATE}
            </Checkbox>
          </div>
          <Select
            label="Start Time"
            placeholder="Select a start time"
            isRequired
            isDisabled={datesLocked}
            {...select('scheduledStartTime')}
          >
            {SCHEDULE_TIMES.map((time) => (
              <SelectItem key={time} id={time}>
                {time}
              </SelectItem>
            ))}
          </Select>
          <Select
            label="End Time"
            placeholder="Select an end time"
            isRequired
            isDisabled={datesLocked}
            {...select('scheduledEndTime')}
          >
            {SCHEDULE_TIMES.map((time) => (
              <SelectItem key={time} id={time}>
                {time}
              </SelectItem>
            ))}
          </Select>
          <TextField
            label="Time Zone"
            isReadOnly
            value={timeZone}
            description={props.editing ? "The open house's time zone." : 'Taken from your browser.'}
          />
          <DatePicker
            label="Preparation Date"
            name="openHousePreparationDate"
            description="Optional; no earlier than today."
            minValue={todayDate()}
            value={values.openHousePreparationDate}
            onChange={(date) => setValue('openHousePreparationDate', date)}
            errorMessage={errors.openHousePreparationDate}
          />
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">At the open house</legend>
        <div className="schedule__flags">
          {FLAGS.map(([name, label]) => (
            <Checkbox key={name} isSelected={values[name]} onChange={(selected) => setValue(name, selected)}>
              {label}
            </Checkbox>
          ))}
        </div>
        <TextArea
          label="Instructions"
          name="openHouseInstructions"
          maxLength={INSTRUCTIONS_LIMIT}
          value={values.openHouseInstructions}
          onChange={(value) => setValue('openHouseInstructions', value.slice(0, INSTRUCTIONS_LIMIT))}
          errorMessage={errors.openHouseInstructions}
          description={
            <>
              <span className="schedule__sensitive">
                Do not enter sensitive data such as lockbox codes, alarm codes or passwords: other agents can
                read these instructions.
              </span>
              <span className="schedule__counter" aria-hidden="true">
                {remaining} of {INSTRUCTIONS_LIMIT} characters remaining
              </span>
            </>
          }
          warning={remaining <= 20 ? `${remaining} characters remaining` : null}
        />
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Publishing</legend>
        <div className="form__grid">
          <Select
            label="Publish Level"
            placeholder="Select who may host"
            isRequired
            isDisabled={datesLocked}
            description={
              datesLocked
                ? 'Fixed: another agent hosts this open house.'
                : "'Hosting Myself' needs no publishing."
            }
            {...select('publishLevel')}
          >
            {(levels.includes(values.publishLevel as never) || !values.publishLevel
              ? levels
              : [...levels, values.publishLevel]
            ).map((level) => (
              <SelectItem key={level} id={level}>
                {level}
              </SelectItem>
            ))}
          </Select>
          <TextField
            label="Email Id For Sharing Feedback"
            type="email"
            description="Optional; visitor feedback is shared with this address."
            {...text('emailIdForSharingOHFeedback')}
          />
          <div className="form__full">
            <Checkbox
              isSelected={values.autoCloneOpenHouseFlag}
              onChange={(selected) => setValue('autoCloneOpenHouseFlag', selected)}
            >
              Auto-clone this open house when it ends
            </Checkbox>
          </div>
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Listing</legend>
        <div className="form__grid">
          <TextField label="MLS Id" maxLength={40} {...text('mlsId')} />
          <TextField label="Listing URL" type="url" maxLength={500} {...text('listingURL')} />
        </div>
      </fieldset>
    </>
  )
}

/** Licensed agents of the firm; a Team Lead lists for another agent, never for themselves (SPEC §5). */
function ListingAgentSelect({ values, errors, setValue, role, agentId, firmLicense }: ScheduleFieldsProps) {
  const agents = useQuery({ ...firmAgentsQueryOptions(firmLicense), enabled: Boolean(firmLicense) })
  const choices = (agents.data ?? []).filter(
    (a) => a.reAgentLicenseValidityFlag && !(role === 'Team Lead' && a.id === agentId),
  )
  return (
    <Select
      label="Listing Agent"
      name="listingREAgentId"
      placeholder={agents.isPending ? 'Loading agents…' : 'Select the listing agent'}
      isRequired
      description={
        agents.isError ? "The firm's agents couldn't be loaded. Please reload the page." : undefined
      }
      value={values.listingREAgentId || null}
      onChange={(key) => setValue('listingREAgentId', key == null ? '' : String(key))}
      errorMessage={errors.listingREAgentId}
      items={choices}
    >
      {(a) => <SelectItem id={String(a.id)}>{`${a.reAgentFirstName} ${a.reAgentLastName}`}</SelectItem>}
    </Select>
  )
}
