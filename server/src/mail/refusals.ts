// What a failed send means for the mail: refused for good, waiting for the server to answer at all, or
// waiting out a temporary refusal (decision 031). Read from nodemailer's SMTPConnection errors: `code`
// (ECONNECTION, ETIMEDOUT, EENVELOPE, EAUTH, …), `responseCode`, `response` (the server's reply) and
// `command` (the step that failed: CONN, AUTH …, MAIL FROM, RCPT TO, DATA, API).

export interface SendFailure {
  /**
   * 'final': the server refused this mail for good (5xx to its recipient, unless for policy, or to its
   * message); 'server': the
   * server did not answer, said it is unavailable (421) or refused our login: nothing can go until it
   * does; 'schedule': a temporary refusal (4xx) or one about the sender: tried again on the schedule.
   */
  kind: 'final' | 'server' | 'schedule'
  /** The server's answer, as it said it (`550 5.1.1 No such user`), when it answered. */
  reply: string | null
  /** The error, for an operator. */
  reason: string
}

interface SmtpErrorFields {
  code?: unknown
  responseCode?: unknown
  response?: unknown
  command?: unknown
  message?: unknown
}

const REPLY_CHARS = 1000
const REASON_CHARS = 2000

export function classifySendFailure(err: unknown): SendFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SmtpErrorFields
  const reply =
    typeof e.response === 'string' && e.response.trim() ? e.response.trim().slice(0, REPLY_CHARS) : null
  const code = typeof e.responseCode === 'number' ? e.responseCode : null
  const reason = (typeof e.message === 'string' ? e.message : String(err)).slice(0, REASON_CHARS)
  const step = typeof e.command === 'string' ? e.command : ''
  const of = (kind: SendFailure['kind']): SendFailure => ({ kind, reply, reason })

  // 503 is "bad sequence of commands": our client's fault, never the recipient's.
  const permanent = code !== null && code >= 500 && code < 600 && code !== 503
  // A recipient refused by policy (5.7.x: relaying denied, authentication required) is refused because
  // of how we reach the server, a setting to fix, not because of the recipient: every mail would be.
  const aboutUs =
    step === 'RCPT TO' &&
    (code === 530 || /^\d{3}[ -]5\.7\.\d/.test(reply ?? '') || /relay/i.test(reply ?? ''))
  if (permanent && (step === 'RCPT TO' || step === 'DATA') && !aboutUs) return of('final')
  // Refused before any server saw it: an address no server can take, a message larger than it allows.
  if (e.code === 'EENVELOPE' && step === 'API') return of('final')
  if (e.code === 'EMESSAGE' && code === null) return of('final')
  // No answer, an unavailable service, a greeting that is not one, a login refused: the server itself.
  if (code === null || code === 421 || step === 'CONN' || e.code === 'EAUTH') return of('server')
  return of('schedule')
}

/** The wait after a mail's `attempts`-th failed attempt: the schedule's, its last repeated. */
export function retryDelayMs(attempts: number, delaysMs: readonly number[]): number {
  const last = delaysMs[delaysMs.length - 1] ?? 60_000
  return delaysMs[Math.max(0, attempts - 1)] ?? last
}
