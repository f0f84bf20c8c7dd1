import type { CustomQuestion } from '@porchlight/shared'
import {
  CUSTOM_QUESTION_LIMITS,
  customAnswerProblem,
  YES_NO,
} from '@porchlight/shared/rules/custom-questions'
import { TextInput } from './guest-fields.tsx'
import './custom-answers.css'

export type Answers = Record<string, string>
export type AnswerErrors = Record<string, string>

/** The answers the server would refuse, by question id (blank answers are fine: all are optional). */
export function answerErrors(questions: readonly CustomQuestion[], answers: Answers): AnswerErrors {
  const errors: AnswerErrors = {}
  for (const q of questions) {
    const answer = answers[q.id]?.trim()
    const problem = answer ? customAnswerProblem(q, answer) : null
    if (problem) errors[q.id] = problem
  }
  return errors
}

/** The given answers, trimmed, as GuestSignInBody's `customAnswers`. */
export function answersInput(answers: Answers): Answers | undefined {
  const given = Object.entries(answers)
    .map(([id, a]) => [id, a.trim()] as const)
    .filter(([, a]) => a !== '')
  return given.length > 0 ? Object.fromEntries(given) : undefined
}

/** The open house's own questions, after the standard fields (issue 14); every one optional. */
export function CustomAnswerFields({
  questions,
  answers,
  errors,
  onChange,
}: {
  questions: readonly CustomQuestion[]
  answers: Answers
  errors: AnswerErrors
  onChange: (id: number, answer: string) => void
}) {
  if (questions.length === 0) return null
  return (
    <fieldset className="guest-fieldset">
      <legend>A few more questions (optional)</legend>
      {questions.map((q) =>
        q.kind === 'text' ? (
          <TextInput
            key={q.id}
            label={q.text}
            name={`customAnswers.${q.id}`}
            maxLength={CUSTOM_QUESTION_LIMITS.answer}
            value={answers[q.id] ?? ''}
            onChange={(value) => onChange(q.id, value)}
            error={errors[q.id]}
          />
        ) : (
          <fieldset
            key={q.id}
            className="guest-rating guest-options"
            aria-invalid={errors[q.id] ? true : undefined}
            aria-describedby={errors[q.id] ? `answer-${q.id}-error` : undefined}
          >
            <legend>{q.text}</legend>
            <div className={q.kind === 'yesno' ? 'guest-options__row' : 'guest-options__list'}>
              {(q.kind === 'yesno' ? YES_NO : (q.choices ?? [])).map((choice) => (
                <label key={choice} className="guest-rating__choice">
                  <input
                    type="radio"
                    name={`customAnswers.${q.id}`}
                    value={choice}
                    checked={answers[q.id] === choice}
                    onChange={() => onChange(q.id, choice)}
                  />
                  <span>{choice}</span>
                </label>
              ))}
            </div>
            {errors[q.id] && (
              <p id={`answer-${q.id}-error`} className="guest-field__error">
                {errors[q.id]}
              </p>
            )}
          </fieldset>
        ),
      )}
    </fieldset>
  )
}
