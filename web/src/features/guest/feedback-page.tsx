import type { PublicOpenHouse } from '@porchlight/shared'
import type { FeedbackRatingField } from '@porchlight/shared/enums'
import { messages } from '@porchlight/shared/messages'
import { type FormEvent, useState } from 'react'
import { FEEDBACK_SECTIONS, RATING_CHOICES, ratingFieldsOf, ratingLabel } from './feedback-fields.ts'
import { GuestApiError, saveGuestFeedback } from './guest-api.ts'
import { type GuestQuery, guestHref, navigate } from './guest-nav.ts'
import { GuestMessage, GuestShell } from './guest-shell.tsx'

const FEEDBACK_TEXT_LIMIT = 2000

/** SPEC /public/OpenHouseToday/feedback: every SPEC §3 rating (N/A or 1–5) by section, and free text. */
export function FeedbackPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Your Feedback" openHouseId={query.openHouseId}>
      {(oh) =>
        query.prospectId ? (
          <FeedbackForm oh={oh} query={query} prospectId={query.prospectId} />
        ) : (
          <GuestMessage tone="error">Please sign in first, then you can leave your feedback.</GuestMessage>
        )
      }
    </GuestShell>
  )
}

function FeedbackForm({
  oh,
  query,
  prospectId,
}: {
  oh: PublicOpenHouse
  query: GuestQuery
  prospectId: number
}) {
  const [ratings, setRatings] = useState<Partial<Record<FeedbackRatingField, string>>>({})
  const [text, setText] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (submitting) return
    setSubmitting(true)
    setError(null)
    try {
      await saveGuestFeedback({
        openHouseId: oh.id,
        prospectId,
        feedbackText: text.trim() || undefined,
        ...ratings,
        createdDate: new Date().toISOString(),
        updatedDate: new Date().toISOString(),
      })
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
      const reason =
        failure instanceof GuestApiError && failure.status === 0
          ? failure.message
          : failure instanceof GuestApiError && failure.status < 500 && failure.fieldErrors.length > 0
            ? failure.fieldErrors.map((f) => f.message).join(' ')
            : null
      setError(reason ? `${messages.feedbackSaveFailed} ${reason}` : messages.feedbackSaveFailed)
    }
  }

  return (
    <form className="guest-form" onSubmit={submit} noValidate>
      <p className="guest-lede">
        Rate what you saw from 1 to 5 (5 is excellent), or leave N/A. Every question is optional.
      </p>
      {FEEDBACK_SECTIONS.map(({ group, title }) => (
        <fieldset key={group} className="guest-fieldset">
          <legend>{title}</legend>
          {ratingFieldsOf(group).map((field) => (
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
                    <span>{choice === '' ? 'N/A' : choice}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </fieldset>
      ))}
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
      {error && (
        <div className="guest-message guest-message--error" role="alert">
          {error}
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
