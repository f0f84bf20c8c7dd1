import { describe, expect, it } from 'vitest'
import { CustomQuestionInput, CustomQuestionsInput } from './custom-question.ts'

describe('custom questions as the schedule form sends them', () => {
  it('drops the choices of a question that is not a choice, and trims the wording', () => {
    expect(CustomQuestionInput.parse({ text: '  Pre-approved? ', kind: 'yesno', choices: ['A'] })).toEqual({
      text: 'Pre-approved?',
      kind: 'yesno',
      choices: null,
    })
  })

  it('wants two to six different choices of at most 60 characters, and at most five questions', () => {
    const choice = (choices: string[]) =>
      CustomQuestionInput.safeParse({ text: 'Best room?', kind: 'choice', choices }).error?.issues[0]?.message
    expect(choice(['Kitchen'])).toBe('Give 2 to 6 choices')
    expect(choice(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBe('Give 2 to 6 choices')
    expect(choice(['Kitchen', 'kitchen'])).toBe('Each choice must be different')
    expect(choice(['Kitchen', 'x'.repeat(61)])).toBe('A choice can be at most 60 characters')
    expect(choice(['Kitchen', 'Garden'])).toBeUndefined()
    const six = Array.from({ length: 6 }, (_, i) => ({ text: `Q${i}`, kind: 'text' }))
    expect(CustomQuestionsInput.safeParse(six).error?.issues[0]?.message).toBe('Ask at most 5 questions')
  })
})
