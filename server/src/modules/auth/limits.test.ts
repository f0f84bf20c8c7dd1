import { describe, expect, it } from 'vitest'
import { LocalCounts } from './limits.ts'

describe('counts kept in the process while Redis is away', () => {
  it('counts a fixed window and starts again once it ends', () => {
    const counts = new LocalCounts()
    expect(counts.incr('k', 1000, 0)).toEqual({ n: 1, ttlMs: 1000 })
    expect(counts.incr('k', 1000, 400)).toEqual({ n: 2, ttlMs: 600 })
    expect(counts.get('k', 999)).toEqual({ n: 2, ttlMs: 1 })
    expect(counts.get('k', 1000)).toEqual({ n: 0, ttlMs: 0 })
    expect(counts.incr('k', 1000, 1000)).toEqual({ n: 1, ttlMs: 1000 })
  })

  it('gives a count back, never below zero and never to an ended window', () => {
    const counts = new LocalCounts()
    counts.incr('k', 1000, 0)
    counts.decr('k', 10)
    counts.decr('k', 10)
    expect(counts.get('k', 10).n).toBe(0)
    counts.decr('gone', 10)
    expect(counts.get('gone', 10).n).toBe(0)
  })

  it('holds at most its number of keys: ended windows go first, then the oldest', () => {
    const counts = new LocalCounts(3)
    counts.incr('ended', 10, 0)
    counts.incr('a', 1000, 0)
    counts.incr('b', 1000, 0)
    counts.incr('c', 1000, 20)
    expect(counts.size).toBe(3)
    expect(counts.get('a', 20).n).toBe(1)
    counts.incr('d', 1000, 30)
    expect(counts.size).toBe(3)
    expect(counts.get('a', 30).n).toBe(0)
    expect(counts.get('d', 30).n).toBe(1)
  })
})
