import { messages } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { FEEDBACK_SECTIONS, ratingFieldsOf, ratingLabel } from '../guest/feedback-fields.ts'
import { feedbackSummaryQueryOptions } from '../prospects/queries.ts'

/** SPEC feedback summary: per rating the rounded average (N/A when nobody rated it), the count, the texts. */
export function FeedbackSummarySection({ openHouseId }: { openHouseId: number }) {
  const summary = useQuery(feedbackSummaryQueryOptions(openHouseId))

  return (
    <section
      className="card board-section"
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
      ) : (
        <>
          <p className="board-count" data-testid="feedback-count">
            {summary.data.count === 0
              ? 'No feedback yet. Guests are offered the feedback form right after they sign in.'
              : `${summary.data.count} ${summary.data.count === 1 ? 'guest' : 'guests'} gave feedback`}
          </p>
          {summary.data.count > 0 && (
            <>
              <div className="feedback-groups">
                {FEEDBACK_SECTIONS.map(({ group, title }) => (
                  <table key={group} className="feedback-table">
                    <caption>{title}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Rating</th>
                        <th scope="col">Average (1–5)</th>
                      </tr>
                    </thead>
                    <tbody>
                      {ratingFieldsOf(group).map((field) => (
                        <tr key={field}>
                          <th scope="row">{ratingLabel(field)}</th>
                          <td>{summary.data.averages[field] ?? 'N/A'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ))}
              </div>
              {summary.data.texts.length > 0 && (
                <>
                  <h3>What guests wrote</h3>
                  <ul className="feedback-texts">
                    {summary.data.texts.map((text, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: texts may repeat and carry no id; newest first
                      <li key={i}>{text}</li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </>
      )}
    </section>
  )
}
