import { useEffect, useState } from 'react'

// A message for the next screen only (e.g. 'plan added' shown on /signin). Kept in memory: a reload
// or a later visit must not show it again.
let pending: string | null = null

export function setFlash(message: string) {
  pending = message
}

/** The message left for this screen, if any; it is used up once the screen has shown it. */
export function useFlash(): string | null {
  const [message] = useState(() => pending)
  useEffect(() => {
    pending = null
  }, [])
  return message
}
