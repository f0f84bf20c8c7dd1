import { useState } from 'react'
import { Button } from './Button.tsx'
import { TextField, type TextFieldProps } from './TextField.tsx'

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'adornment'> {
  /** Offer a Show/Hide button (SPEC §2 sign-in). */
  canReveal?: boolean
}

/** A password input, optionally with a show/hide toggle that keeps the typed value. */
export function PasswordField({
  canReveal = false,
  autoComplete = 'current-password',
  ...props
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false)
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      spellCheck="false"
      adornment={
        canReveal ? (
          <Button
            variant="ghost"
            size="sm"
            aria-label={visible ? 'Hide password' : 'Show password'}
            onPress={() => setVisible((value) => !value)}
          >
            {visible ? 'Hide' : 'Show'}
          </Button>
        ) : undefined
      }
    />
  )
}
