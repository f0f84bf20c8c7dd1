import { useEffect, useState } from 'react'

// A message for the next screen only (e.g. 'plan added' shown on /signin). Kept in memory: a reload
// or a later visit must not show it again. It may carry the email the next sign-in form starts with.
let pending: { message: string; email?: string } | null = null

export function setFlash(message: string, email?: string) {
  pending = { message, email }
}

/** The message left for this screen, if any; it is used up once the screen has shown it. */
export function useFlash(): string | null {
  return useFlashWithEmail()?.message ?? null
}

/** The message and the email left for the sign-in form, used up like useFlash's. */
export function useFlashWithEmail(): { message: string; email?: string } | null {
  const [flash] = useState(() => pending)
  useEffect(() => {
    pending = null
  }, [])
  return flash
}
