import { useCallback, useEffect, useRef, useState } from 'react'
import type { z } from 'zod'

export type FieldErrors<V> = Partial<Record<Extract<keyof V, string>, string>>

/**
 * Why a submit failed, in words: messages for named fields (a server 422's `errors`), otherwise one
 * for the whole form. api/client.ts `formFailure` makes one from an API error.
 */
export interface FormFailure {
  fieldErrors: ReadonlyArray<{ field: string; message: string }>
  message: string
}

/**
 * Form state for one screen: the typed values (kept through every failed submit), an error per
 * field and one for the whole form. Validation is the shared zod schema the server uses too; a
 * server 422 puts its `errors` beside the same fields. After a failed submit the first invalid
 * field gets focus, so keyboard and screen-reader users land on what needs fixing.
 */
export function useForm<V extends Record<string, unknown>>(initialValues: V | (() => V)) {
  const [values, setValues] = useState(initialValues)
  const [errors, setErrors] = useState<FieldErrors<V>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [focusRequest, setFocusRequest] = useState(0)
  const formRef = useRef<HTMLFormElement>(null)

  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current)
  }, [focusRequest])

  const setValue = useCallback(<K extends Extract<keyof V, string>>(name: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }))
    // Editing a field answers its error; the others stay until the next submit.
    setErrors((previous) => {
      if (!(name in previous)) return previous
      const next = { ...previous }
      delete next[name]
      return next
    })
  }, [])

  const isField = (name: string): name is Extract<keyof V, string> => name in values

  /**
   * Validates `input` (default: the values); on failure shows each issue beside its field.
   * `requiredMessages` replace the schema's wording for a field left empty (e.g. an unpicked select);
   * `crossFieldErrors` are shown with the rest when the schema fails early, before its own
   * cross-field refinements could run (zod runs those only on an otherwise valid object).
   */
  function parse<T>(
    schema: z.ZodType<T>,
    input: unknown = values,
    requiredMessages: FieldErrors<V> = {},
    crossFieldErrors: FieldErrors<V> = {},
  ): T | null {
    setFormError(null)
    const result = schema.safeParse(input)
    if (result.success) {
      setErrors({})
      return result.data
    }
    const next: FieldErrors<V> = { ...crossFieldErrors }
    const unplaced: string[] = []
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? '')
      if (isField(name)) next[name] ??= (isEmpty(values[name]) && requiredMessages[name]) || issue.message
      else unplaced.push(issue.message)
    }
    setErrors(next)
    if (unplaced.length > 0) setFormError(unplaced.join(' '))
    setFocusRequest((n) => n + 1)
    return null
  }

  /** Validates one field as the user leaves it, once something was typed (e.g. 'Email Id Not Valid'). */
  function check(name: Extract<keyof V, string>, schema: z.ZodType) {
    if (isEmpty(values[name])) return
    const result = schema.safeParse(values[name])
    const message = result.success ? undefined : result.error.issues[0]?.message
    if (message) setErrors((previous) => ({ ...previous, [name]: message }))
  }

  /**
   * Shows why a submit failed: field errors beside their fields (any not of this form above it),
   * otherwise the failure's message above the form. The typed values are left as they are.
   */
  function showError({ fieldErrors, message }: FormFailure) {
    if (fieldErrors.length > 0) {
      const next: FieldErrors<V> = {}
      const unplaced: string[] = []
      for (const error of fieldErrors) {
        if (isField(error.field)) next[error.field] ??= error.message
        else unplaced.push(error.message)
      }
      setErrors(next)
      setFormError(unplaced.length > 0 ? unplaced.join(' ') : null)
      setFocusRequest((n) => n + 1)
      return
    }
    setFormError(message)
  }

  return { values, setValue, errors, formError, formRef, parse, check, showError }
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || value === undefined
}

const FOCUSABLE_INVALID =
  '[data-invalid] input, [data-invalid] button, [data-invalid] textarea, [data-invalid] [role="spinbutton"], [aria-invalid="true"]'

function focusFirstInvalid(form: HTMLFormElement | null) {
  if (!form) return
  for (const element of form.querySelectorAll<HTMLElement>(FOCUSABLE_INVALID)) {
    const hidden = element.closest('[aria-hidden="true"], [hidden]') || element.getClientRects().length === 0
    if (!hidden && element.tabIndex >= 0) {
      element.focus()
      return
    }
  }
}
