import { describe, expect, it } from 'vitest'
import { batched } from './batched.ts'

/** A run that records the items of each call and answers each item doubled, once let go. */
function recorder() {
  const runs: number[][] = []
  const waiting: Array<() => void> = []
  const run = (items: number[]) => {
    runs.push(items)
    return new Promise<number[]>((resolve) => waiting.push(() => resolve(items.map((i) => i * 2))))
  }
  const release = () => {
    for (const go of waiting.splice(0)) go()
  }
  return { runs, run, release }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('batched', () => {
  it('sends the calls made on one turn together, and answers each caller its own result', async () => {
    const r = recorder()
    const double = batched(r.run)
    const answers = Promise.all([double(1), double(2), double(3)])
    await turn()
    expect(r.runs).toEqual([[1, 2, 3]])
    r.release()
    expect(await answers).toEqual([2, 4, 6])
  })

  it('lets calls made while a run is out wait for it, then go together in one run', async () => {
    const r = recorder()
    const double = batched(r.run)
    const first = double(1)
    await turn()
    const later = [double(2), double(3), double(4)]
    await turn()
    expect(r.runs).toEqual([[1]])
    r.release()
    expect(await first).toBe(2)
    await turn()
    expect(r.runs).toEqual([[1], [2, 3, 4]])
    r.release()
    expect(await Promise.all(later)).toEqual([4, 6, 8])
  })

  it('puts at most max items in a run, the rest in the runs after it, in order', async () => {
    const r = recorder()
    const double = batched(r.run, 2)
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => double(i)))
    for (let i = 0; i < 3; i++) {
      await turn()
      r.release()
    }
    expect(await answers).toEqual([2, 4, 6, 8, 10])
    expect(r.runs).toEqual([[1, 2], [3, 4], [5]])
  })

  it('with runs side by side, sends the calls of a later turn at once rather than after the run out', async () => {
    const r = recorder()
    const double = batched(r.run, 200, 2)
    const first = double(1)
    await turn()
    const second = [double(2), double(3)]
    await turn()
    // Two out at once: the third turn's calls wait for one of them to end.
    const third = double(4)
    await turn()
    expect(r.runs).toEqual([[1], [2, 3]])
    r.release()
    expect(await first).toBe(2)
    expect(await Promise.all(second)).toEqual([4, 6])
    await turn()
    expect(r.runs).toEqual([[1], [2, 3], [4]])
    r.release()
    expect(await third).toBe(8)
  })

  it('fails every caller of a failed run with its error, and the next run goes on', async () => {
    let fail = true
    const double = batched(async (items: number[]) => {
      if (fail) throw new Error('the database went away')
      return items.map((i) => i * 2)
    })
    const failed = [double(1), double(2)].map((p) => p.catch((err: Error) => err.message))
    expect(await Promise.all(failed)).toEqual(['the database went away', 'the database went away'])
    fail = false
    expect(await double(3)).toBe(6)
  })

  it('a lone caller waits one turn, not for a batch to fill', async () => {
    const double = batched(async (items: number[]) => items.map((i) => i * 2), 200)
    expect(await double(21)).toBe(42)
  })
})
