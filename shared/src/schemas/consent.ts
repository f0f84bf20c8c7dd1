import { z } from 'zod'

/** What a guest's consent event says: it agreed to email, or opted out. */
export const ConsentKind = z.enum(['email_opt_in', 'email_opt_out'])
/** Where it came from: the sign-in form, a mail client's one-click, the unsubscribe page, the agent. */
export const ConsentSource = z.enum(['guest_sign_in', 'one_click', 'unsubscribe_page', 'agent'])

/** One line of a prospect's consent history (GET getProspectConsents). */
export const ConsentEntry = z.object({
  id: z.number().int(),
  kind: ConsentKind,
  source: ConsentSource,
  at: z.string(),
  detail: z.string().nullable(),
})
export type ConsentEntry = z.infer<typeof ConsentEntry>

/** The history's words, as the prospect detail shows them. */
export const consentKindLabel: Record<ConsentEntry['kind'], string> = {
  email_opt_in: 'Agreed to email',
  email_opt_out: 'Unsubscribed from email',
}
export const consentSourceLabel: Record<ConsentEntry['source'], string> = {
  guest_sign_in: 'Open house sign-in',
  one_click: 'One-click unsubscribe in the mail app',
  unsubscribe_page: 'Unsubscribe page',
  agent: 'Agent',
}
