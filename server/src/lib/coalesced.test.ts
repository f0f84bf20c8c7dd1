import { describe, expect, it } from 'vitest'
import { coalesced } from './coalesced.ts'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('coalesced', () => {
  it('runs once per key for the calls of one window, with the newest value', async () => {
    const runs: Array<[string, number]> = []
    const c = coalesced<number>(
      30,
      (key, value) => void runs.push([key, value]),
      () => {},
    )
    c.call('a', 1)
    c.call('a', 2)
    c.call('b', 7)
    c.call('a', 3)
    expect(runs).toEqual([])
    await wait(60)
    expect(runs).toEqual([
      ['a', 3],
      ['b', 7],
    ])
  })

  it('follows a call made while its key runs with a run of its own', async () => {
    const runs: number[] = []
    let release = () => {}
    const c = coalesced<number>(
      10,
      async (_key, value) => {
        runs.push(value)
        if (value === 1) await new Promise<void>((r) => (release = r))
      },
      () => {},
    )
    c.call('a', 1)
    await wait(30)
    expect(runs).toEqual([1])
    c.call('a', 2)
    await wait(30)
    expect(runs).toEqual([1, 2])
    release()
  })

  it('reports a failed run and keeps going; after stop nothing runs', async () => {
    const failures: string[] = []
    const runs: number[] = []
    const c = coalesced<number>(
      10,
      (_key, value) => {
        if (value === 1) throw new Error('no')
        runs.push(value)
      },
      (err, key) => failures.push(`${key}: ${(err as Error).message}`),
    )
    c.call('a', 1)
    await wait(30)
    c.call('a', 2)
    await wait(30)
    expect(failures).toEqual(['a: no'])
    expect(runs).toEqual([2])
    c.call('a', 3)
    expect(c.waiting).toBe(1)
    c.stop()
    c.call('a', 4)
    await wait(30)
    expect(runs).toEqual([2])
    expect(c.waiting).toBe(0)
  })
})
