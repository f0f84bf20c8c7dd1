import type { ReactNode } from 'react'
import {
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
} from 'react-aria-components'
import { cx } from './cx.ts'
import { FieldHelp, FieldLabel } from './TextField.tsx'
import './Field.css'

export interface TextAreaProps extends Omit<AriaTextFieldProps, 'children' | 'className'> {
  label: string
  description?: ReactNode
  /** A note that does not block submitting, read out politely when it changes. */
  warning?: string | null
  errorMessage?: string | null
  placeholder?: string
  rows?: number
  className?: string
}

/** A labelled multi-line text input with help, warning and error text wired to it. */
export function TextArea({
  label,
  description,
  warning,
  errorMessage,
  placeholder,
  rows = 4,
  className,
  isInvalid,
  ...props
}: TextAreaProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={isInvalid || Boolean(errorMessage)}
      className={cx('field', className)}
    >
      <FieldLabel label={label} isRequired={props.isRequired} />
      <AriaTextArea className="field__input field__textarea" placeholder={placeholder} rows={rows} />
      <FieldHelp description={description} warning={warning} />
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  )
}
