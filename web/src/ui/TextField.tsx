import type { ReactNode, Ref } from 'react'
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
  Input,
  Label,
  Text,
} from 'react-aria-components'
import { cx } from './cx.ts'
import './Field.css'

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'children' | 'className'> {
  label: string
  description?: ReactNode
  /**
   * A note that does not block submitting (SPEC §5 password length). Pass null while there is none:
   * the live region then already exists, so the warning is read out when it appears.
   */
  warning?: string | null
  /** The field's error (client validation or the server's 422); makes the field invalid. */
  errorMessage?: string | null
  placeholder?: string
  /** A control inside the input's right edge, e.g. the show/hide password button. */
  adornment?: ReactNode
  className?: string
  inputRef?: Ref<HTMLInputElement>
}

/** A labelled text input with help, warning and error text wired to it for screen readers. */
export function TextField({
  label,
  description,
  warning,
  errorMessage,
  placeholder,
  adornment,
  className,
  inputRef,
  isInvalid,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={isInvalid || Boolean(errorMessage)}
      className={cx('field', className)}
    >
      <FieldLabel label={label} isRequired={props.isRequired} />
      <div className={cx('field__control', adornment != null && 'field__control--adorned')}>
        <Input ref={inputRef} className="field__input" placeholder={placeholder} />
        {adornment != null && <span className="field__adornment">{adornment}</span>}
      </div>
      <FieldHelp description={description} warning={warning} />
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  )
}

/** The label with a visual required mark; react-aria already sets aria-required on the control. */
export function FieldLabel({ label, isRequired }: { label: string; isRequired?: boolean }) {
  return (
    <Label className="field__label">
      {label}
      {isRequired && (
        <span className="field__required" aria-hidden="true">
          *
        </span>
      )}
    </Label>
  )
}

/** Help text and the polite warning region, both in the field's description slot. */
export function FieldHelp({ description, warning }: { description?: ReactNode; warning?: string | null }) {
  if (description == null && warning === undefined) return null
  return (
    <Text slot="description" className="field__help">
      {description}
      {warning !== undefined && (
        <span role="status" className="field__warning">
          {warning}
        </span>
      )}
    </Text>
  )
}
