import type { ReactNode } from 'react'
import {
  Select as AriaSelect,
  type SelectProps as AriaSelectProps,
  Button,
  FieldError,
  Header,
  ListBox,
  ListBoxItem,
  type ListBoxItemProps,
  ListBoxSection,
  Popover,
  SelectValue,
} from 'react-aria-components'
import { cx } from './cx.ts'
import { FieldHelp, FieldLabel } from './TextField.tsx'
import './Field.css'
import './Select.css'

export interface SelectProps<T extends object> extends Omit<AriaSelectProps<T>, 'children' | 'className'> {
  /** The visible label; leave it out only where an aria-label names the select (calendar month/year). */
  label?: string
  description?: ReactNode
  errorMessage?: string | null
  className?: string
  children: ReactNode | ((item: T) => ReactNode)
  items?: Iterable<T>
}

/** A single-choice dropdown (a button opening a listbox), labelled and validated like a text field. */
export function Select<T extends object>({
  label,
  description,
  errorMessage,
  className,
  children,
  items,
  isInvalid,
  ...props
}: SelectProps<T>) {
  return (
    <AriaSelect {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', className)}>
      {label && <FieldLabel label={label} isRequired={props.isRequired} />}
      <Button className="field__input select__button">
        <SelectValue className="select__value" />
        <svg className="icon select__chevron" viewBox="0 0 20 20" aria-hidden="true">
          <path d="m5 8 5 5 5-5" />
        </svg>
      </Button>
      <FieldHelp description={description} />
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="select__popover">
        <ListBox items={items} className="select__listbox">
          {children}
        </ListBox>
      </Popover>
    </AriaSelect>
  )
}

export function SelectItem({ className, ...props }: ListBoxItemProps) {
  return <ListBoxItem {...props} className={cx('select__item', className as string | undefined)} />
}

/** A labelled group of options, e.g. the states of one country. */
export function SelectSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ListBoxSection className="select__section">
      <Header className="select__header">{title}</Header>
      {children}
    </ListBoxSection>
  )
}
