import { describe, expect, it } from 'vitest'
import { CustomQuestionInput, CustomQuestionsInput } from '../schemas/custom-question.ts'
import { type CustomQuestion, customAnswerList, customAnswerProblem } from './custom-questions.ts'

const yesNo: CustomQuestion = { id: 1, text: 'Pre-approved?', kind: 'yesno', choices: null }
const room: CustomQuestion = { id: 2, text: 'Best room?', kind: 'choice', choices: ['Kitchen', 'Garden'] }
const note: CustomQuestion = { id: 3, text: 'Anything else?', kind: 'text', choices: null }

describe('custom question answers', () => {
  it('takes Yes or No, one of the choices, and text up to 500 characters', () => {
    expect(customAnswerProblem(yesNo, 'Yes')).toBeNull()
    expect(customAnswerProblem(yesNo, 'yes')).toBe('Answer Yes or No')
    expect(customAnswerProblem(room, 'Garden')).toBeNull()
    expect(customAnswerProblem(room, 'Attic')).toBe('Pick one of the choices')
    expect(customAnswerProblem(note, 'x'.repeat(500))).toBeNull()
    expect(customAnswerProblem(note, 'x'.repeat(501))).toBe('Keep the answer to 500 characters')
  })

  it("lists the given answers in the questions' order with their wording, leaving out blank and unknown ones", () => {
    expect(customAnswerList([yesNo, room, note], { 3: 'Lovely', 1: 'No', 2: '', 9: 'Stray' })).toEqual([
      { questionId: 1, question: 'Pre-approved?', answer: 'No' },
      { questionId: 3, question: 'Anything else?', answer: 'Lovely' },
    ])
    expect(customAnswerList([yesNo], null)).toEqual([])
  })
})

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
