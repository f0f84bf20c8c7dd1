import { type FeedbackSummary, messages } from '@porchlight/shared'
import { type FeedbackRatingField, RATING_MAX } from '@porchlight/shared/constants/feedback-ratings'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { FEEDBACK_SECTIONS, ratingFieldsOf, ratingLabel } from '../../common/feedback-fields.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { feedbackSummaryQueryOptions } from '../prospects/queries.ts'
import './feedback-summary.css'

/**
 * SPEC feedback summary, made readable (issue 12): the rated aspects only, each a bar of its rounded
 * average with the value as text; "Show all" lists the aspects nobody rated yet; then the texts.
 */
export function FeedbackSummarySection({ openHouseId }: { openHouseId: number }) {
  const summary = useQuery(feedbackSummaryQueryOptions(openHouseId))

  return (
    <section
      className="card board-section feedback-summary"
      aria-labelledby="feedback-summary-title"
      aria-busy={summary.isFetching}
    >
      <h2 id="feedback-summary-title">Feedback Summary</h2>
      {summary.isPending ? (
        <Spinner label="Loading feedback summary…" />
      ) : summary.isError ? (
        <Alert
          tone="error"
          title={messages.feedbackSummaryLoadFailed}
          actions={<Button onPress={() => void summary.refetch()}>Try again</Button>}
        />
      ) : summary.data.count === 0 ? (
        <div className="empty-state">
          <p data-testid="feedback-count">
            No feedback yet. Guests are offered the feedback form right after they sign in.
          </p>
        </div>
      ) : (
        <FeedbackChart summary={summary.data} />
      )}
    </section>
  )
}

/** Each section with the fields that have an average (rated) and those without (not rated yet). */
function bySection(averages: FeedbackSummary['averages']) {
  return FEEDBACK_SECTIONS.map(({ group, title }) => {
    const fields = ratingFieldsOf(group)
    return {
      group,
      title,
      rated: fields.filter((f) => averages[f] !== null),
      unrated: fields.filter((f) => averages[f] === null),
    }
  })
}

function FeedbackChart({ summary }: { summary: FeedbackSummary }) {
  const [showAll, setShowAll] = useState(false)
  const sections = bySection(summary.averages)
  const rated = sections.filter((s) => s.rated.length > 0)
  const unrated = sections.filter((s) => s.unrated.length > 0)
  const unratedCount = unrated.reduce((n, s) => n + s.unrated.length, 0)

  return (
    <>
      <p className="board-count" data-testid="feedback-count">
        {`${summary.count} ${summary.count === 1 ? 'guest' : 'guests'} gave feedback`}
      </p>
      {rated.length === 0 ? (
        <p className="feedback-summary__note">No aspect has a rating yet: guests only wrote comments.</p>
      ) : (
        <>
          <p className="feedback-summary__note">
            Average rating of each rated aspect, 1 to 5 (5 is excellent).
          </p>
          <div className="feedback-summary__groups">
            {rated.map(({ group, title, rated: fields }) => (
              <div key={group} className="feedback-summary__group">
                <h3 id={`feedback-rated-${group}`}>{title}</h3>
                <ul className="feedback-bars" aria-labelledby={`feedback-rated-${group}`}>
                  {fields.map((field) => (
                    <Bar
                      key={field}
                      field={field}
                      average={summary.averages[field] ?? 0}
                      count={summary.ratingCounts[field]}
                    />
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </>
      )}
      {unratedCount > 0 && (
        <div className="feedback-summary__more">
          <div className="feedback-summary__more-bar">
            <p>{unratedCount === 1 ? '1 aspect' : `${unratedCount} aspects`} not rated yet</p>
            <Button
              size="sm"
              className="feedback-summary__toggle disclosure"
              aria-expanded={showAll}
              aria-controls="feedback-unrated"
              onPress={() => setShowAll(!showAll)}
            >
              Show all
            </Button>
          </div>
          <div id="feedback-unrated" className="feedback-summary__unrated" hidden={!showAll}>
            <h3>Not rated yet</h3>
            <dl>
              {unrated.map(({ group, title, unrated: fields }) => (
                <div key={group}>
                  <dt>{title}</dt>
                  <dd>{fields.map(ratingLabel).join(', ')}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      )}
      {summary.texts.length > 0 && (
        <>
          <h3>What guests wrote</h3>
          <ul className="feedback-summary__texts">
            {summary.texts.map((text, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: texts may repeat and carry no id; newest first
              <li key={i}>{text}</li>
            ))}
          </ul>
        </>
      )}
    </>
  )
}

/** One aspect: its name, a bar as long as its average (decoration), the average and the count as text. */
function Bar({ field, average, count }: { field: FeedbackRatingField; average: number; count: number }) {
  return (
    <li className="feedback-bar">
      <span className="feedback-bar__label">{ratingLabel(field)}</span>
      <span className="feedback-bar__track" aria-hidden="true">
        <span className="feedback-bar__fill" style={{ width: `${(average / RATING_MAX) * 100}%` }} />
      </span>
      <span className="feedback-bar__value">
        {average} of {RATING_MAX}
        <span className="feedback-bar__count">{count === 1 ? ' · 1 rating' : ` · ${count} ratings`}</span>
      </span>
    </li>
  )
}
