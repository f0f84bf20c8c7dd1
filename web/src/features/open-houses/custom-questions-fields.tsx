import {
  type CustomQuestion,
  CustomQuestionInput,
  type CustomQuestionKind,
  CUSTOM_QUESTION_LIMITS as LIMIT,
} from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import './custom-questions-fields.css'

/** A question while the schedule form is edited; `key` tells React which row is which. */
export interface QuestionDraft {
  key: string
  /** Saved before: sent back so the question keeps its id and its answers. */
  id?: number
  text: string
  kind: CustomQuestionKind
  choices: string[]
}

const KINDS = [
  { id: 'text', name: 'Short text' },
  { id: 'yesno', name: 'Yes / No' },
  { id: 'choice', name: 'One of several choices' },
] as const

let nextKey = 0
const newKey = () => `q${++nextKey}`

export function questionDrafts(questions: CustomQuestion[] | undefined): QuestionDraft[] | null {
  if (!questions) return null
  return questions.map((q) => ({
    key: newKey(),
    id: q.id,
    text: q.text,
    kind: q.kind,
    choices: q.choices ?? [],
  }))
}

/** What SaveOpenHouseBody takes; null (not loaded) leaves the questions as they are. */
export function questionsInput(drafts: QuestionDraft[] | null) {
  if (!drafts) return undefined
  return drafts.map((q) => ({
    id: q.id,
    text: q.text,
    kind: q.kind,
    choices: q.kind === 'choice' ? q.choices : undefined,
  }))
}

/** Each field's problem in one question, by the shared schema ('text', 'choices', 'choices.1'). */
function problemsOf(draft: QuestionDraft): Record<string, string> {
  const result = CustomQuestionInput.safeParse(questionsInput([draft])?.[0])
  const out: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message
  return out
}

interface CustomQuestionsFieldsProps {
  questions: QuestionDraft[] | null
  onChange: (questions: QuestionDraft[]) => void
  /** Set after a failed submit: the problems then show beside each question's fields. */
  error?: string
}

/** Issue 14: up to five questions the guest form shows after its standard fields. */
export function CustomQuestionsFields({ questions, onChange, error }: CustomQuestionsFieldsProps) {
  if (!questions) return null
  const update = (key: string, change: Partial<QuestionDraft>) =>
    onChange(questions.map((q) => (q.key === key ? { ...q, ...change } : q)))
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions]
    const [moved] = next.splice(index, 1)
    next.splice(index + by, 0, moved as QuestionDraft)
    onChange(next)
  }
  const add = () => onChange([...questions, { key: newKey(), text: '', kind: 'text', choices: [] }])

  return (
    <fieldset className="form__section">
      <legend className="form__legend">Questions for visitors</legend>
      <p className="form__note">
        Up to {LIMIT.questions} questions of your own. Visitors see them after the standard fields; answering
        is optional. Their answers show on the attendee board, the prospect, the CSV and your integrations.
      </p>
      {error && (
        <p className="field__error custom-questions__error" role="alert">
          {error}
        </p>
      )}
      {questions.length > 0 && (
        <ol className="custom-questions">
          {questions.map((q, index) => {
            const problems = error ? problemsOf(q) : {}
            const n = index + 1
            return (
              <li key={q.key} className="custom-questions__item">
                <div className="form__grid">
                  <TextField
                    label={`Question ${n}`}
                    className="form__full"
                    value={q.text}
                    maxLength={LIMIT.text}
                    isRequired
                    onChange={(text) => update(q.key, { text })}
                    errorMessage={problems.text}
                  />
                  <Select
                    label={`Answer type for question ${n}`}
                    value={q.kind}
                    onChange={(kind) => {
                      const next = String(kind) as CustomQuestionKind
                      update(q.key, {
                        kind: next,
                        choices: next === 'choice' && q.choices.length === 0 ? ['', ''] : q.choices,
                      })
                    }}
                    errorMessage={problems.kind}
                    items={KINDS}
                  >
                    {(k) => <SelectItem id={k.id}>{k.name}</SelectItem>}
                  </Select>
                </div>
                {q.kind === 'choice' && (
                  <fieldset className="custom-questions__choices">
                    <legend>Choices for question {n}</legend>
                    {problems.choices && (
                      <p className="field__error" role="alert">
                        {problems.choices}
                      </p>
                    )}
                    {q.choices.map((choice, c) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are controlled; a choice is its place in the list
                      <div className="custom-questions__choice" key={`${q.key}-${c}`}>
                        <TextField
                          label={`Choice ${c + 1}`}
                          value={choice}
                          maxLength={LIMIT.choice}
                          onChange={(text) =>
                            update(q.key, { choices: q.choices.map((x, i) => (i === c ? text : x)) })
                          }
                          errorMessage={problems[`choices.${c}`]}
                        />
                        {q.choices.length > LIMIT.minChoices && (
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Remove choice ${c + 1} of question ${n}`}
                            onPress={() => update(q.key, { choices: q.choices.filter((_, i) => i !== c) })}
                          >
                            Remove
                          </Button>
                        )}
                      </div>
                    ))}
                    {q.choices.length < LIMIT.maxChoices && (
                      <div>
                        <Button size="sm" onPress={() => update(q.key, { choices: [...q.choices, ''] })}>
                          Add a choice to question {n}
                        </Button>
                      </div>
                    )}
                  </fieldset>
                )}
                <div className="custom-questions__actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={index === 0}
                    aria-label={`Move question ${n} up`}
                    onPress={() => move(index, -1)}
                  >
                    Move up
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={index === questions.length - 1}
                    aria-label={`Move question ${n} down`}
                    onPress={() => move(index, 1)}
                  >
                    Move down
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove question ${n}`}
                    onPress={() => onChange(questions.filter((x) => x.key !== q.key))}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            )
          })}
        </ol>
      )}
      <div>
        {questions.length < LIMIT.questions ? (
          <Button onPress={add}>Add a question</Button>
        ) : (
          <p className="form__note">That is the most questions an open house can ask.</p>
        )}
      </div>
    </fieldset>
  )
}
