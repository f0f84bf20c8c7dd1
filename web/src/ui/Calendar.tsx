import {
  Calendar as AriaCalendar,
  Button,
  CalendarCell,
  CalendarGrid,
  CalendarMonthPicker,
  CalendarYearPicker,
} from 'react-aria-components'
import { Select, SelectItem } from './Select.tsx'
import './DatePicker.css'

/**
 * The month grid of the DatePicker's popover, with month and year lists to jump far (a date of
 * birth is decades back). It takes its value and limits from the DatePicker around it.
 */
export function Calendar() {
  return (
    <AriaCalendar className="calendar">
      <header className="calendar__header">
        <Button slot="previous" className="calendar__nav">
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="m12 5-5 5 5 5" />
          </svg>
        </Button>
        <CalendarMonthPicker>
          {({ items, ...picker }) => (
            <Select {...picker} items={items} className="calendar__picker">
              {(item) => <SelectItem id={item.id}>{item.formatted}</SelectItem>}
            </Select>
          )}
        </CalendarMonthPicker>
        <CalendarYearPicker>
          {({ items, ...picker }) => (
            <Select {...picker} items={items} className="calendar__picker">
              {(item) => <SelectItem id={item.id}>{item.formatted}</SelectItem>}
            </Select>
          )}
        </CalendarYearPicker>
        <Button slot="next" className="calendar__nav">
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="m8 5 5 5-5 5" />
          </svg>
        </Button>
      </header>
      <CalendarGrid className="calendar__grid">
        {(date) => <CalendarCell date={date} className="calendar__cell" />}
      </CalendarGrid>
    </AriaCalendar>
  )
}
