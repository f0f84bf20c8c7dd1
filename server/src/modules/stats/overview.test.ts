import { describe, expect, it } from 'vitest'
import { feedbackTrend } from './overview.ts'

describe('feedbackTrend', () => {
  it('gives six 7-day weeks, oldest first, the last ending today, with empty weeks at 0', () => {
    const weeks = feedbackTrend('2026-11-24', [
      { week: 0, count: 2, average: 5 },
      { week: 3, count: 1, average: 2 },
    ])
    expect(weeks.map((w) => [w.weekStart, w.weekEnd, w.count, w.averageOverallExperience])).toEqual([
      ['2026-10-14', '2026-10-20', 0, null],
      ['2026-10-21', '2026-10-27', 0, null],
      ['2026-10-28', '2026-11-03', 1, 2],
      ['2026-11-04', '2026-11-10', 0, null],
      ['2026-11-11', '2026-11-17', 0, null],
      ['2026-11-18', '2026-11-24', 2, 5],
    ])
  })

  it('crosses a month and a year end by calendar days', () => {
    const [first, , , , , last] = feedbackTrend('2027-01-03', [])
    expect(first?.weekStart).toBe('2026-11-23')
    expect(last).toEqual({
      weekStart: '2026-12-28',
      weekEnd: '2027-01-03',
      count: 0,
      averageOverallExperience: null,
    })
  })
})
