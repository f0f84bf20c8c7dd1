import { lazy, type ReactNode, Suspense } from 'react'
import {
  DatePicker as AriaDatePicker,
  type DatePickerProps as AriaDatePickerProps,
  Button,
  DateInput,
  DateSegment,
  type DateValue,
  Dialog,
  FieldError,
  Group,
  I18nProvider,
  Popover,
} from 'react-aria-components'
import { cx } from './cx.ts'
import { Spinner } from './Spinner.tsx'
import { FieldHelp, FieldLabel } from './TextField.tsx'
import './Field.css'
import './DatePicker.css'

export interface DatePickerProps<T extends DateValue>
  extends Omit<AriaDatePickerProps<T>, 'children' | 'className'> {
  label: string
  description?: ReactNode
  errorMessage?: string | null
  className?: string
}

// The calendar grid is only needed once someone opens it; typing the date needs none of it.
const CalendarPanel = lazy(() => import('./Calendar.tsx').then((module) => ({ default: module.Calendar })))

/**
 * A date typed as month/day/year segments or picked from a calendar with month and year lists.
 * Always US format (SPEC §5 "MM/dd/yyyy"), whatever the browser's language.
 */
export function DatePicker<T extends DateValue>({
  label,
  description,
  errorMessage,
  className,
  isInvalid,
  ...props
}: DatePickerProps<T>) {
  return (
    <I18nProvider locale="en-US">
      <AriaDatePicker
        shouldForceLeadingZeros
        {...props}
        isInvalid={isInvalid || Boolean(errorMessage)}
        className={cx('field', className)}
      >
        <FieldLabel label={label} isRequired={props.isRequired} />
        <Group className="field__input date-picker__group">
          <DateInput className="date-picker__input">
            {(segment) => <DateSegment segment={segment} className="date-picker__segment" />}
          </DateInput>
          <Button className="date-picker__button">
            <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
              <path d="M4 6.5h12M6.5 3v2.5M13.5 3v2.5M4.5 5h11a1 1 0 0 1 1 1v9.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Z" />
            </svg>
          </Button>
        </Group>
        <FieldHelp description={description} />
        <FieldError className="field__error">{errorMessage}</FieldError>
        <Popover className="date-picker__popover">
          <Dialog className="date-picker__dialog">
            <Suspense fallback={<Spinner label="Loading calendar…" />}>
              <CalendarPanel />
            </Suspense>
          </Dialog>
        </Popover>
      </AriaDatePicker>
    </I18nProvider>
  )
}
