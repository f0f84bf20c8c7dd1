import { z } from 'zod'
import { CUSTOM_QUESTION_KINDS, CUSTOM_QUESTION_LIMITS as LIMIT } from '../rules/custom-questions.ts'

const Text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .refine((t) => !t.includes('\u0000'), { error: 'Contains a character that is not allowed' })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} can be at most ${max} characters` })

/** A question as the schedule form sends it: with its id when it was saved before (the id is kept). */
export const CustomQuestionInput = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    text: Text('The question', LIMIT.text),
    kind: z.enum(CUSTOM_QUESTION_KINDS, { error: 'Pick short text, yes/no or a choice' }),
    choices: z.array(Text('A choice', LIMIT.choice)).nullish(),
  })
  .superRefine((q, ctx) => {
    if (q.kind !== 'choice') return
    const choices = q.choices ?? []
    if (choices.length < LIMIT.minChoices || choices.length > LIMIT.maxChoices) {
      ctx.addIssue({
        code: 'custom',
        path: ['choices'],
        message: `Give ${LIMIT.minChoices} to ${LIMIT.maxChoices} choices`,
      })
    } else if (new Set(choices.map((c) => c.toLowerCase())).size !== choices.length) {
      ctx.addIssue({ code: 'custom', path: ['choices'], message: 'Each choice must be different' })
    }
  })
  .transform((q) => ({ ...q, choices: q.kind === 'choice' ? (q.choices ?? []) : null }))
export type CustomQuestionInput = z.input<typeof CustomQuestionInput>

export const CustomQuestionsInput = z
  .array(CustomQuestionInput)
  .max(LIMIT.questions, { error: `Ask at most ${LIMIT.questions} questions` })

export const CustomQuestionSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  kind: z.enum(CUSTOM_QUESTION_KINDS),
  choices: z.array(z.string()).nullable(),
})

export const CustomAnswerSchema = z.object({
  questionId: z.number().int(),
  question: z.string(),
  answer: z.string(),
})

/** The guest's answers, keyed by question id; checked against the open house's questions on sign-in. */
export const CustomAnswersInput = z
  .record(z.string().regex(/^\d+$/, { error: 'Unknown question' }), z.string().max(2000))
  .optional()
  .transform((a) =>
    Object.fromEntries(
      Object.entries(a ?? {})
        .map(([k, v]) => [k, v.trim()] as const)
        .filter(([, v]) => v !== ''),
    ),
  )

/** One visit's answers in the prospect detail: which open house, when, and what the visitor answered. */
export const ProspectAnswersSchema = z.object({
  openHouseId: z.number().int(),
  propertyAddress: z.string(),
  scheduledDate: z.string().nullable(),
  signedInAt: z.string(),
  answers: z.array(CustomAnswerSchema),
})
export type ProspectAnswers = z.infer<typeof ProspectAnswersSchema>
