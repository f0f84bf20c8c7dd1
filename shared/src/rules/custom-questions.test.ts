import { describe, expect, it } from 'vitest'
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
