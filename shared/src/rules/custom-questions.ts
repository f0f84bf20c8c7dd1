// Plain rules of issue 14's custom questions, without zod: the guest page checks answers with them, and
// the server checks them again on sign-in.

export const CUSTOM_QUESTION_KINDS = ['text', 'yesno', 'choice'] as const
export type CustomQuestionKind = (typeof CUSTOM_QUESTION_KINDS)[number]

export const CUSTOM_QUESTION_LIMITS = {
  questions: 5,
  text: 200,
  minChoices: 2,
  maxChoices: 6,
  choice: 60,
  answer: 500,
} as const

export const YES_NO = ['Yes', 'No'] as const

export interface CustomQuestion {
  id: number
  text: string
  kind: CustomQuestionKind
  /** A choice question's options; null for the other kinds. */
  choices: string[] | null
}

/** One answer as the board, the CSV and the webhooks show it: with the wording the guest read. */
export interface CustomAnswer {
  questionId: number
  question: string
  answer: string
}

/** What is wrong with an answer, or null when it fits its question. */
export function customAnswerProblem(question: CustomQuestion, answer: string): string | null {
  if (question.kind === 'yesno' && !(YES_NO as readonly string[]).includes(answer)) return 'Answer Yes or No'
  if (question.kind === 'choice' && !(question.choices ?? []).includes(answer))
    return 'Pick one of the choices'
  if (answer.length > CUSTOM_QUESTION_LIMITS.answer)
    return `Keep the answer to ${CUSTOM_QUESTION_LIMITS.answer} characters`
  return null
}

/** The given answers (blank ones left out), in the questions' order, with their wording. */
export function customAnswerList(
  questions: ReadonlyArray<Pick<CustomQuestion, 'id' | 'text'>>,
  answers: Record<string, unknown> | null | undefined,
): CustomAnswer[] {
  if (!answers) return []
  return questions.flatMap((q) => {
    const answer = answers[String(q.id)]
    return typeof answer === 'string' && answer !== '' ? [{ questionId: q.id, question: q.text, answer }] : []
  })
}
