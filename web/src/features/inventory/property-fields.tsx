import { type AddressSuggestion, PROPERTY_COUNTRIES, PROPERTY_TYPES, statesOf } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { ComboBox, ComboBoxItem } from '../../ui/ComboBox.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import type { FieldErrors } from '../../ui/use-form.ts'
import type { PropertyFormValues } from './property-values.ts'
import { suggestionValues } from './property-values.ts'
import { addressSearchQueryOptions } from './queries.ts'

type Field = Extract<keyof PropertyFormValues, string>

interface PropertyFieldsProps {
  values: PropertyFormValues
  errors: FieldErrors<PropertyFormValues>
  setValue: <K extends Field>(name: K, value: PropertyFormValues[K]) => void
}

/**
 * SPEC §3/§5 property search form: an address lookup (US and CA) that fills the fields, and the
 * fields themselves, which can always be typed by hand.
 */
export function PropertyFields({ values, errors, setValue }: PropertyFieldsProps) {
  const text = (name: Exclude<Field, 'country' | 'propertyType' | 'stateLong'>) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValue(name, value),
    errorMessage: errors[name],
  })

  const canada = values.country === 'Canada'
  const fill = (suggestion: AddressSuggestion) => {
    for (const [name, value] of Object.entries(suggestionValues(suggestion))) setValue(name as Field, value)
  }

  return (
    <>
      <AddressLookup onPick={fill} />
      <fieldset className="form__section">
        <legend className="form__legend">Address</legend>
        <div className="form__grid">
          <TextField label="Address Line 1" autoComplete="address-line1" isRequired {...text('address1')} />
          <TextField label="Address Line 2" autoComplete="address-line2" {...text('address2')} />
          <TextField label="City" autoComplete="address-level2" isRequired {...text('city')} />
          <StateSelect
            country={values.country}
            value={values.stateLong}
            onChange={(value) => setValue('stateLong', value)}
            errorMessage={errors.stateLong}
          />
          <TextField label="County" isRequired {...text('county')} />
          <div className="form__grid form__grid--zip">
            <TextField
              label="Zip Code"
              autoComplete="postal-code"
              isRequired
              description={canada ? 'Like K1A 0B1' : '5 digits, like 30075'}
              {...text('zipCode')}
            />
            <TextField
              label="Zip+4"
              inputMode="numeric"
              maxLength={4}
              isDisabled={canada}
              description={canada ? 'US addresses only' : 'Optional, 4 digits'}
              {...text('zipPlus4')}
            />
          </div>
          <Select
            label="Country"
            name="country"
            isRequired
            value={values.country || null}
            onChange={(key) => {
              const country = key == null ? '' : String(key)
              setValue('country', country)
              // The states of one country are not the provinces of the other.
              if (!statesOf(country).includes(values.stateLong)) setValue('stateLong', '')
              if (country === 'Canada') setValue('zipPlus4', '')
            }}
            errorMessage={errors.country}
          >
            {PROPERTY_COUNTRIES.map((country) => (
              <SelectItem key={country} id={country}>
                {country}
              </SelectItem>
            ))}
          </Select>
          <Select
            label="Property Type"
            name="propertyType"
            placeholder="Select a property type"
            isRequired
            value={values.propertyType || null}
            onChange={(key) => setValue('propertyType', key == null ? '' : String(key))}
            errorMessage={errors.propertyType}
          >
            {PROPERTY_TYPES.map((type) => (
              <SelectItem key={type} id={type}>
                {type}
              </SelectItem>
            ))}
          </Select>
          <TextField
            label="Latitude"
            inputMode="decimal"
            description="Optional; places the property on the map."
            {...text('latitude')}
          />
          <TextField label="Longitude" inputMode="decimal" {...text('longitude')} />
        </div>
      </fieldset>
    </>
  )
}

/** SPEC §9: the state, province or territory from the agent form's lists, for the chosen country. */
function StateSelect(props: {
  country: string
  value: string
  onChange: (value: string) => void
  errorMessage?: string
}) {
  const canada = props.country === 'Canada'
  return (
    <Select
      label={canada ? 'Province or Territory' : 'State'}
      name="stateLong"
      placeholder={canada ? 'Select a province or territory' : 'Select a state'}
      isRequired
      value={props.value || null}
      onChange={(key) => props.onChange(key == null ? '' : String(key))}
      errorMessage={props.errorMessage}
    >
      {statesOf(props.country).map((state) => (
        <SelectItem key={state} id={state}>
          {state}
        </SelectItem>
      ))}
    </Select>
  )
}

/** Debounces what is typed so the lookup runs once the agent pauses. */
function useDebounced(value: string, ms: number) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

function AddressLookup({ onPick }: { onPick: (suggestion: AddressSuggestion) => void }) {
  const [input, setInput] = useState('')
  const q = useDebounced(input.trim(), 300)
  const search = useQuery(addressSearchQueryOptions(q))
  const suggestions = q.length >= 3 ? (search.data?.data ?? []) : []
  const unavailable = search.isError || search.data?.configured === false

  let status: string | null = null
  if (unavailable) status = "Address lookup isn't available right now; please enter the address below."
  else if (q.length >= 3 && search.isFetching) status = 'Looking up addresses…'
  else if (q.length >= 3 && search.isSuccess && suggestions.length === 0) {
    status = 'No matching address found; please enter it below.'
  }

  return (
    <ComboBox
      label="Find the address"
      placeholder="Start typing a street address in the US or Canada"
      description="Pick a suggestion to fill in the fields, or type them yourself."
      warning={status}
      inputValue={input}
      onInputChange={setInput}
      items={suggestions.map((s, index) => ({ ...s, id: index }))}
      allowsCustomValue
      menuTrigger="input"
      onSelectionChange={(key) => {
        const picked = key === null ? undefined : suggestions[Number(key)]
        if (picked) {
          onPick(picked)
          setInput(picked.label)
        }
      }}
    >
      {(item) => <ComboBoxItem id={item.id}>{item.label}</ComboBoxItem>}
    </ComboBox>
  )
}
