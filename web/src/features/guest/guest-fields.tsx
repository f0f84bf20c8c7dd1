import { useId } from 'react'

// Plain HTML controls for the guest pages: native inputs and selects are what a phone handles best,
// and they keep the light chunk free of react-aria. Labels, errors and required state are wired for
// screen readers by hand.

interface TextInputProps {
  label: string
  name: string
  value: string
  onChange: (value: string) => void
  error?: string
  required?: boolean
  type?: 'text' | 'email' | 'tel' | 'password'
  autoComplete?: string
  inputMode?: 'text' | 'email' | 'tel' | 'numeric'
  maxLength?: number
}

export function TextInput({
  label,
  name,
  value,
  onChange,
  error,
  required,
  type = 'text',
  autoComplete,
  inputMode,
  maxLength,
}: TextInputProps) {
  const id = useId()
  return (
    <div className="guest-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="guest-field__error">
          {error}
        </p>
      )}
    </div>
  )
}

interface ChoiceFieldProps {
  label: string
  name: string
  /** Values shown as they are, or [value, label] pairs. */
  options: ReadonlyArray<string | readonly [string, string]>
  value: string
  onChange: (value: string) => void
  error?: string
}

export function ChoiceField({ label, name, options, value, onChange, error }: ChoiceFieldProps) {
  const id = useId()
  return (
    <div className="guest-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Choose…</option>
        {options.map((option) => {
          const [v, text] = typeof option === 'string' ? [option, option] : option
          return (
            <option key={v} value={v}>
              {text}
            </option>
          )
        })}
      </select>
      {error && (
        <p id={`${id}-error`} className="guest-field__error">
          {error}
        </p>
      )}
    </div>
  )
}
