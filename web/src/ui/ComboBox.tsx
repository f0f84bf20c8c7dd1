import type { ReactNode } from 'react'
import {
  ComboBox as AriaComboBox,
  type ComboBoxProps as AriaComboBoxProps,
  FieldError,
  Input,
  ListBox,
  ListBoxItem,
  type ListBoxItemProps,
  Popover,
} from 'react-aria-components'
import { cx } from './cx.ts'
import { FieldHelp, FieldLabel } from './TextField.tsx'
import './Field.css'
import './Select.css'

export interface ComboBoxProps<T extends object>
  extends Omit<AriaComboBoxProps<T>, 'children' | 'className'> {
  label: string
  description?: ReactNode
  /** A polite status under the input (e.g. 'Searching…', 'No addresses found'). */
  warning?: string | null
  errorMessage?: string | null
  placeholder?: string
  className?: string
  children: ReactNode | ((item: T) => ReactNode)
}

/** A text input with a list of suggestions to pick from (address autocomplete). */
export function ComboBox<T extends object>({
  label,
  description,
  warning,
  errorMessage,
  placeholder,
  className,
  children,
  items,
  isInvalid,
  ...props
}: ComboBoxProps<T>) {
  return (
    <AriaComboBox
      {...props}
      items={items}
      isInvalid={isInvalid || Boolean(errorMessage)}
      className={cx('field', className)}
    >
      <FieldLabel label={label} isRequired={props.isRequired} />
      <Input className="field__input" placeholder={placeholder} />
      <FieldHelp description={description} warning={warning} />
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="select__popover">
        <ListBox className="select__listbox">{children}</ListBox>
      </Popover>
    </AriaComboBox>
  )
}

export function ComboBoxItem({ className, ...props }: ListBoxItemProps) {
  return <ListBoxItem {...props} className={cx('select__item', className as string | undefined)} />
}
