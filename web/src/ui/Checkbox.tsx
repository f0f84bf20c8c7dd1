import {
  Checkbox as AriaCheckbox,
  type CheckboxProps as AriaCheckboxProps,
  composeRenderProps,
} from 'react-aria-components'
import { cx } from './cx.ts'
import './Checkbox.css'

/** A checkbox with its label as children. */
export function Checkbox({ className, children, ...props }: AriaCheckboxProps) {
  return (
    <AriaCheckbox {...props} className={composeRenderProps(className, (extra) => cx('checkbox', extra))}>
      {composeRenderProps(children, (content, { isSelected }) => (
        <>
          <span className="checkbox__box" aria-hidden="true">
            {isSelected && (
              <svg viewBox="0 0 18 18" aria-hidden="true">
                <path d="m4 9.5 3 3 7-7" />
              </svg>
            )}
          </span>
          <span className="checkbox__label">{content}</span>
        </>
      ))}
    </AriaCheckbox>
  )
}
