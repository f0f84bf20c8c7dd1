import type { PublicOpenHouse } from '@porchlight/shared'
import type { FeedbackRatingField } from '@porchlight/shared/constants/feedback-ratings'
import { FEEDBACK_TEXT_LIMIT } from '@porchlight/shared/constants/fields'
import { messages } from '@porchlight/shared/messages'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../api/request.ts'
import {
  detailFieldsOf,
  FEEDBACK_SECTIONS,
  PRIMARY_RATINGS,
  RATING_CHOICES,
  ratingLabel,
} from '../../common/feedback-fields.ts'
import { saveGuestFeedback } from './guest-api.ts'
import { followLink, type GuestQuery, guestHref, navigate } from './guest-nav.ts'
import { GuestMessage, GuestShell } from './guest-shell.tsx'
import { forgetGuestToken, guestTokenFor } from './guest-tokens.ts'

/**
 * SPEC /public/OpenHouseToday/feedback: the six ratings visitors answer most and the free text first;
 * "Rate more details" opens the other SPEC §3 ratings (N/A or 1–5) by section. Every answer lives in
 * the form's state, so opening or closing the details loses nothing, and only answered ratings are sent.
 * Only the phone the visitor signed in on holds the guest token the server asks for (guest-tokens.ts);
 * anywhere else the page says so rather than offer a form that cannot be saved.
 */
export function FeedbackPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Your Feedback" openHouseId={query.openHouseId}>
      {(oh) => {
        const guestToken = query.prospectId ? guestTokenFor(oh.id, query.prospectId) : null
        return query.prospectId && guestToken ? (
          <FeedbackForm oh={oh} query={query} prospectId={query.prospectId} guestToken={guestToken} />
        ) : (
          <GuestMessage tone="info">
            <p>To leave feedback, please sign in at the open house on this phone first.</p>
            <SignInLink oh={oh} query={query} />
          </GuestMessage>
        )
      }}
    </GuestShell>
  )
}

function SignInLink({ oh, query }: { oh: PublicOpenHouse; query: GuestQuery }) {
  return (
    <a
      className="guest-button guest-button--secondary"
      href={guestHref('/new', {
        openHouseId: oh.id,
        rePropertyId: query.rePropertyId ?? oh.rePropertyId,
        reAgentId: query.reAgentId,
        from: query.from,
      })}
      onClick={followLink}
    >
      Sign In
    </a>
  )
}

function FeedbackForm({
  oh,
  query,
  prospectId,
  guestToken,
}: {
  oh: PublicOpenHouse
  query: GuestQuery
  prospectId: number
  guestToken: string
}) {
  const [ratings, setRatings] = useState<Partial<Record<FeedbackRatingField, string>>>({})
  const [text, setText] = useState('')
  const [more, setMore] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // The server no longer knows this phone's token (a 404): only signing in again can help.
  const [signInAgain, setSignInAgain] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (submitting) return
    setSubmitting(true)
    setError(null)
    setSignInAgain(false)
    try {
      await saveGuestFeedback({
        openHouseId: oh.id,
        prospectId,
        guestToken,
        feedbackText: text.trim() || undefined,
        ...ratings,
        createdDate: new Date().toISOString(),
        updatedDate: new Date().toISOString(),
      })
      // Sent: the token has done its work and leaves the phone (a shared phone keeps no one's visit open).
      forgetGuestToken(oh.id, prospectId)
      navigate(
        guestHref('/feedback/confirm', {
          openHouseId: oh.id,
          rePropertyId: query.rePropertyId ?? oh.rePropertyId,
          prospectId,
          from: query.from,
        }),
      )
    } catch (failure) {
      setSubmitting(false)
      if (failure instanceof ApiError && failure.status === 404) {
        setError(messages.guestTokenInvalid)
        setSignInAgain(true)
        return
      }
      const reason =
        failure instanceof ApiError && failure.status === 0
          ? failure.message
          : failure instanceof ApiError && failure.status < 500 && failure.fieldErrors.length > 0
            ? failure.fieldErrors.map((f) => f.message).join(' ')
            : null
      setError(reason ? `${messages.feedbackSaveFailed} ${reason}` : messages.feedbackSaveFailed)
    }
  }

  const rating = (field: FeedbackRatingField) => (
    <fieldset key={field} className="guest-rating">
      <legend>{ratingLabel(field)}</legend>
      <div className="guest-rating__choices">
        {RATING_CHOICES.map((choice) => (
          <label key={choice} className="guest-rating__choice">
            <input
              type="radio"
              name={field}
              value={choice}
              checked={(ratings[field] ?? '') === choice}
              onChange={() => setRatings((r) => ({ ...r, [field]: choice }))}
            />
            <span>{choice || 'N/A'}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )

  return (
    <form className="guest-form" onSubmit={submit} noValidate>
      <p className="guest-lede">
        Rate what you saw from 1 to 5 (5 is excellent), or leave N/A. Every question is optional.
      </p>
      <fieldset className="guest-fieldset">
        <legend>Your impressions</legend>
        {PRIMARY_RATINGS.map(rating)}
      </fieldset>
      <div className="guest-field">
        <label htmlFor="feedbackText">Anything else you would like to share?</label>
        <textarea
          id="feedbackText"
          name="feedbackText"
          rows={4}
          maxLength={FEEDBACK_TEXT_LIMIT}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <button
        type="button"
        className="guest-button guest-button--secondary guest-button--block guest-more disclosure"
        aria-expanded={more}
        aria-controls="feedback-details"
        onClick={() => setMore(!more)}
      >
        Rate more details
      </button>
      <div id="feedback-details" className="guest-details" hidden={!more}>
        {FEEDBACK_SECTIONS.map(({ group, title }) => (
          <fieldset key={group} className="guest-fieldset">
            <legend>{title}</legend>
            {detailFieldsOf(group).map(rating)}
          </fieldset>
        ))}
      </div>
      {error && (
        <div className="guest-message guest-message--error" role="alert">
          {error}
          {signInAgain && <SignInLink oh={oh} query={query} />}
        </div>
      )}
      <button
        type="submit"
        className="guest-button guest-button--primary guest-button--block"
        disabled={submitting}
      >
        {submitting ? 'Submitting...' : 'Submit Feedback'}
      </button>
    </form>
  )
}
