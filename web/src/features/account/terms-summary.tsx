import { useId } from 'react'

/** The read-only terms summary beside the signup agreement checkbox; scrollable and keyboard-reachable. */
export function TermsSummary() {
  const titleId = useId()
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to be read.
    <section className="terms" aria-labelledby={titleId} tabIndex={0}>
      <h2 id={titleId} className="terms__title">
        Terms summary
      </h2>
      <ul className="terms__list">
        <li>Porchlight is always free for SOLO agents; paid plans add more open houses, teams and leads.</li>
        <li>You keep your account details true and current, including your real estate license.</li>
        <li>
          Guests who sign in at your open houses become your leads. Contact them only about real estate and
          respect their choice of how to be contacted.
        </li>
        <li>We use your email Id to send validation codes, reports and open house invitations.</li>
        <li>Access to Dashboard, Open Houses and My Stuff needs a valid agent license.</li>
        <li>You may close your account at any time by writing to the support team.</li>
      </ul>
    </section>
  )
}
