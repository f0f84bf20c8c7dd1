import { useState } from 'react'
import { followLink, type GuestQuery, guestHref } from './guest-nav.ts'
import { GuestMessage, GuestShell } from './guest-shell.tsx'

/** SPEC /public/OpenHouseToday/new/confirm: 'Yes, Sure!' goes to feedback; 'No, Thank you!' says goodbye. */
export function ConfirmPage({ query }: { query: GuestQuery }) {
  const [declined, setDeclined] = useState(false)
  return (
    <GuestShell title={declined ? 'Goodbye!' : 'Thank you for signing in!'} openHouseId={query.openHouseId}>
      {(oh) =>
        declined ? (
          <GuestMessage tone="success">
            <p>Thank you for visiting. Enjoy the rest of the open house!</p>
            <p>You can close this browser now.</p>
          </GuestMessage>
        ) : (
          <>
            <p className="guest-lede">
              Would you like to tell us what you think of this home and of your visit? It takes about a
              minute.
            </p>
            <div className="guest-actions">
              <a
                className="guest-button guest-button--primary guest-button--block"
                href={guestHref('/feedback', {
                  openHouseId: oh.id,
                  rePropertyId: query.rePropertyId ?? oh.rePropertyId,
                  prospectId: query.prospectId,
                  from: query.from,
                })}
                onClick={followLink}
              >
                Yes, Sure!
              </a>
              <button
                type="button"
                className="guest-button guest-button--secondary guest-button--block"
                onClick={() => setDeclined(true)}
              >
                No, Thank you!
              </button>
            </div>
          </>
        )
      }
    </GuestShell>
  )
}

/** SPEC /public/OpenHouseToday/feedback/confirm. */
export function FeedbackConfirmPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Thank you for your feedback!" openHouseId={query.openHouseId}>
      {() => (
        <GuestMessage tone="success">
          <p>Your feedback helps the seller and the agent. Enjoy the rest of the open house!</p>
          <p>You can close this browser now.</p>
        </GuestMessage>
      )}
    </GuestShell>
  )
}
