// When a visitor may still sign in at an open house: plain, without zod, so the guest pages use the
// very rule the server applies.

/** A visitor who signs in from the car afterwards still counts: sign-in stays open a day after the end. */
export const SIGN_IN_AFTER_END_MS = 24 * 60 * 60 * 1000

export const OPEN_HOUSE_ENDED = 'This open house has ended. Thank you for your interest.'

/** Whether sign-in has closed: the open house ended (`endsAt`, an instant) more than a day ago. */
export function signInClosed(endsAt: string | Date | null, now = Date.now()): boolean {
  if (endsAt === null) return false
  return new Date(endsAt).getTime() + SIGN_IN_AFTER_END_MS < now
}
