import type { CustomAnswer } from '@porchlight/shared'
import './custom-answers-list.css'

/** A visitor's answers to the open house's own questions (issue 14), each under its question. */
export function CustomAnswersList({ answers }: { answers: readonly CustomAnswer[] | undefined }) {
  if (!answers || answers.length === 0) return null
  return (
    <dl className="custom-answers" data-testid="custom-answers">
      {answers.map((a) => (
        <div key={a.questionId} className="custom-answers__item">
          <dt>{a.question}</dt>
          <dd>{a.answer}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Whether any of these visitors answered a question: the board then gives the answers a column. */
export const anyAnswers = (rows: ReadonlyArray<{ customAnswers?: readonly CustomAnswer[] }>) =>
  rows.some((r) => (r.customAnswers?.length ?? 0) > 0)
