import { parseDate } from '@internationalized/date'
import { AGENT_ROLES, latestDateOfBirth, messages, PHONE_COUNTRIES, STATE_LISTS } from '@porchlight/shared'
import { ApiError, formFailure } from '../../api/client.ts'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Select, SelectItem, SelectSection } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import type { FieldErrors, FormFailure } from '../../ui/use-form.ts'
import { ADMIN_TEAM_MEMBER, type AgentFormValues } from './agent-values.ts'
import './agents.css'

interface AgentFieldsProps {
  values: AgentFormValues
  errors: FieldErrors<AgentFormValues>
  setValue: <K extends Extract<keyof AgentFormValues, string>>(name: K, value: AgentFormValues[K]) => void
  /**
   * On edit the licensed state, license number, broker firm details and email are read-only (SPEC §5),
   * and so is the role: it is granted by a verified Team Lead of the firm, never typed.
   */
  mode: 'create' | 'edit'
  /** Exempt from license and zip (SPEC §5, Admin Team Member); by default the role picked at sign-up. */
  licenseExempt?: boolean
}

/** Every agent field of SPEC §3 with the rules of SPEC §5; used by agent signup and agent edit. */
export function AgentFields({ values, errors, setValue, mode, licenseExempt }: AgentFieldsProps) {
  const editing = mode === 'edit'
  const licenseRequired = !(licenseExempt ?? values.reAgentRole === ADMIN_TEAM_MEMBER)
  const licenseHelp = licenseRequired ? undefined : 'Optional for Admin Team Member'
  // A 'required' error from before the role became Admin Team Member no longer applies.
  const shownErrors: FieldErrors<AgentFormValues> = { ...errors }
  if (!licenseRequired) {
    for (const name of ['reAgentLicensedState', 'reAgentLicenseNumber', 'reAgentResidenceZipCode'] as const) {
      if (!values[name].trim()) delete shownErrors[name]
    }
  }
  const text = (name: Exclude<keyof AgentFormValues, 'reAgentDateOfBirth'>) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValue(name, value),
    errorMessage: shownErrors[name],
  })

  return (
    <>
      <fieldset className="form__section">
        <legend className="form__legend">Name</legend>
        <div className="form__grid form__grid--3">
          <TextField label="First Name" autoComplete="given-name" isRequired {...text('reAgentFirstName')} />
          <TextField label="Middle Name" autoComplete="additional-name" {...text('reAgentMiddleName')} />
          <TextField label="Last Name" autoComplete="family-name" isRequired {...text('reAgentLastName')} />
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Contact</legend>
        <div className="form__grid">
          <TextField
            label="Email Id"
            type="email"
            isReadOnly
            description={editing ? 'Email Id cannot be changed here.' : 'The email Id you signed up with.'}
            {...text('reAgentEmailId')}
          />
          {editing ? (
            <TextField
              label="Role"
              isReadOnly
              description="Team Lead and Admin Team Member are granted by a verified Team Lead of your firm."
              {...text('reAgentRole')}
            />
          ) : (
            <Select
              label="Role"
              name="reAgentRole"
              placeholder="Select your role"
              isRequired
              description="The role you ask for. You start as Real Estate Agent until a verified Team Lead of your firm grants it."
              value={values.reAgentRole || null}
              onChange={(key) => setValue('reAgentRole', key == null ? '' : String(key))}
              errorMessage={errors.reAgentRole}
            >
              {AGENT_ROLES.map((role) => (
                <SelectItem key={role} id={role}>
                  {role}
                </SelectItem>
              ))}
            </Select>
          )}
          <Select
            label="Phone Country"
            name="reAgentPhoneCountryCode"
            placeholder="Select a country"
            isRequired
            value={values.reAgentPhoneCountryCode || null}
            onChange={(key) => setValue('reAgentPhoneCountryCode', key == null ? '' : String(key))}
            errorMessage={errors.reAgentPhoneCountryCode}
          >
            {PHONE_COUNTRIES.map((country) => (
              <SelectItem key={country} id={country}>
                {country}
              </SelectItem>
            ))}
          </Select>
          <TextField
            label="Phone Number"
            type="tel"
            autoComplete="tel-national"
            isRequired
            {...text('reAgentPhoneNumber')}
          />
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">License and brokerage</legend>
        <div className="form__grid">
          {editing ? (
            <TextField label="Licensed State" isReadOnly {...text('reAgentLicensedState')} />
          ) : (
            <Select
              label="Licensed State"
              name="reAgentLicensedState"
              placeholder="Select a state or province"
              isRequired={licenseRequired}
              description={licenseHelp}
              value={values.reAgentLicensedState || null}
              onChange={(key) => setValue('reAgentLicensedState', key == null ? '' : String(key))}
              errorMessage={shownErrors.reAgentLicensedState}
            >
              {STATE_LISTS.map((list) => (
                <SelectSection key={list.country} title={list.country}>
                  {list.states.map((state) => (
                    <SelectItem key={state} id={state}>
                      {state}
                    </SelectItem>
                  ))}
                </SelectSection>
              ))}
            </Select>
          )}
          <TextField
            label="License Number"
            isReadOnly={editing}
            isRequired={!editing && licenseRequired}
            description={editing ? undefined : licenseHelp}
            {...text('reAgentLicenseNumber')}
          />
          <TextField
            label="Broker Firm Name"
            autoComplete="organization"
            isReadOnly={editing}
            isRequired={!editing}
            {...text('reAgentBrokerFirmName')}
          />
          <TextField
            label="Broker Firm License"
            isReadOnly={editing}
            isRequired={!editing}
            {...text('reAgentBrokerFirmLicense')}
          />
          <TextField
            label="Firm Name"
            description="Your team or firm, if not the broker's."
            {...text('reAgentFirmName')}
          />
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Personal</legend>
        <div className="form__grid">
          <DatePicker
            label="Date of Birth"
            name="reAgentDateOfBirth"
            description="Optional. MM/dd/yyyy; agents are at least 18 years old."
            maxValue={parseDate(latestDateOfBirth())}
            value={values.reAgentDateOfBirth}
            onChange={(date) => setValue('reAgentDateOfBirth', date)}
            errorMessage={errors.reAgentDateOfBirth}
          />
          <TextField
            label="Residence Zip Code"
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={5}
            isRequired={licenseRequired}
            description={licenseRequired ? 'Five digits, 10000 to 99999.' : licenseHelp}
            {...text('reAgentResidenceZipCode')}
          />
        </div>
      </fieldset>
    </>
  )
}

/**
 * SPEC §8 for an agent save: a 403 goes to /signin (an expired session already went there), anything
 * else is shown on the form as 'Couldn't save the profile!' or the server's own text.
 */
export function agentSaveFailed(
  error: unknown,
  form: { showError(failure: FormFailure): void },
  goToSignIn: () => void,
): void {
  if (error instanceof ApiError && error.status === 403 && error.code === 'FORBIDDEN') {
    goToSignIn()
    return
  }
  form.showError(formFailure(error, messages.profileSaveFailed))
}
