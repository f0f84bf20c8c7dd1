import type { ReactNode, Ref } from 'react'
import { Form as AriaForm, type FormProps } from 'react-aria-components'
import { cx } from './cx.ts'
import './Form.css'

/**
 * A form whose fields are validated by our zod schemas (see use-form.ts), not the browser: errors
 * show beside each field and are announced with it, never as native bubbles.
 */
interface AppFormProps extends Omit<FormProps, 'validationBehavior'> {
  ref?: Ref<HTMLFormElement>
}

export function Form({ className, ...props }: AppFormProps) {
  return <AriaForm {...props} validationBehavior="aria" className={cx('form', className)} />
}

/** The row of buttons at the end of a form: secondary actions first, the submit button last. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form__actions">{children}</div>
}
