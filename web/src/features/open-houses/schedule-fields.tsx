import {
  FLEXI_DATE,
  INSTRUCTIONS_LIMIT,
  OPEN_HOUSE_FOR,
  publishLevelsFor,
  SCHEDULE_TIMES,
} from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextArea } from '../../ui/TextArea.tsx'
import { TextField } from '../../ui/TextField.tsx'
import type { FieldErrors } from '../../ui/use-form.ts'
import { CustomQuestionsFields } from './custom-questions-fields.tsx'
import { firmMembersQueryOptions } from './queries.ts'
import { type ScheduleFormValues, todayDate, tomorrow } from './schedule-values.ts'

type Field = Extract<keyof ScheduleFormValues, string>

interface ScheduleFieldsProps {
  values: ScheduleFormValues
  errors: FieldErrors<ScheduleFormValues>
  setValue: <K extends Field>(name: K, value: ScheduleFormValues[K]) => void
  role: string
  agentId: number
  agentName: string
  firmLicense: string
  /** Team Lead and Admin Team Member choose the listing agent (SPEC §5). */
  choosesListingAgent: boolean
  /**
   * The property is in the scheduler's own inventory: it cannot be scheduled for someone else (the
   * server wants the listing agent's inventory, or a property just added for them).
   */
  ownProperty: boolean
  /** On edit, who the open house is for when a teammate scheduled it (shown read-only). */
  scheduledFor?: string | null
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
          <ListingAgentChoice {...props} />
        </fieldset>
      )}
      {props.scheduledFor && (
        <fieldset className="form__section">
          <legend className="form__legend">Listing agent</legend>
          <div className="form__grid">
            <TextField label="Listing Agent" isReadOnly value={props.scheduledFor} />
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
                : levels.includes('Hosting Myself')
                  ? "'Hosting Myself' needs no publishing."
                  : 'A team level offers it to your team of that type that the listing agent joined.'
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
          <div className="form__full">
            <Checkbox
              isSelected={values.followUpMailFlag}
              onChange={(selected) => setValue('followUpMailFlag', selected)}
            >
              Send guests who agree to email a follow-up with the listing link two days later
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
      <CustomQuestionsFields
        questions={values.customQuestions}
        onChange={(q) => setValue('customQuestions', q)}
        error={errors.customQuestions}
      />
    </>
  )
}

const NO_TEAMMATES = 'Invite agents to your team; once they accept you can schedule for them.'

/**
 * SPEC §5 listing agent: a Team Lead schedules for an accepted teammate (never itself); an Admin Team
 * Member for itself or an accepted teammate. Only the agents the server marks `mayScheduleFor` are
 * offered. A property from the scheduler's own inventory stays the scheduler's: a Team Lead must add
 * the property for the teammate instead, an Admin Team Member schedules it for itself.
 */
function ListingAgentChoice(props: ScheduleFieldsProps) {
  const { values, errors, setValue, role, agentId, agentName, firmLicense, ownProperty } = props
  const members = useQuery({ ...firmMembersQueryOptions(firmLicense), enabled: Boolean(firmLicense) })
  const mayPickSelf = role !== 'Team Lead'
  const teammates = ownProperty
    ? []
    : (members.data ?? [])
        .filter((m) => m.mayScheduleFor && m.reAgentLicenseValidityFlag)
        .map((m) => ({ id: String(m.id), name: `${m.reAgentFirstName} ${m.reAgentLastName}` }))
  const choices = [
    ...(mayPickSelf ? [{ id: String(agentId), name: `Myself (${agentName})` }] : []),
    ...teammates,
  ]
  const chosen = teammates.find((t) => t.id === values.listingREAgentId)

  let description: string | undefined
  if (members.isError) description = errorMessage(members.error, "Your firm's agents couldn't be loaded.")
  else if (ownProperty) {
    description =
      'This property is in your own inventory, so the open house is yours. To schedule for a teammate, add the property through Schedule Open House.'
  } else if (chosen) description = `The property joins ${chosen.name}'s inventory when you save.`
  const empty = members.isSuccess && teammates.length === 0 && !ownProperty

  return (
    <>
      <div className="form__grid">
        <Select
          label="Listing Agent"
          name="listingREAgentId"
          placeholder={members.isPending ? 'Loading agents…' : 'Select the listing agent'}
          isRequired
          isDisabled={choices.length === 0}
          description={description}
          value={values.listingREAgentId || null}
          onChange={(key) => setValue('listingREAgentId', key == null ? '' : String(key))}
          errorMessage={errors.listingREAgentId}
          items={choices}
        >
          {(c) => <SelectItem id={c.id}>{c.name}</SelectItem>}
        </Select>
      </div>
      {empty && (
        <Alert
          tone="info"
          title={
            mayPickSelf
              ? 'You can schedule this open house for yourself only.'
              : 'No teammates to schedule for yet.'
          }
          actions={
            role === 'Team Lead' && (
              <Link to="/mystuff" search={{ activeSection: 'manageMyTeams' }} variant="button-secondary">
                Manage My Teams
              </Link>
            )
          }
        >
          {NO_TEAMMATES}
        </Alert>
      )}
    </>
  )
}
