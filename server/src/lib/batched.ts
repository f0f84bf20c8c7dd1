/**
 * Lets concurrent callers share one round trip. Calls made while nothing is running go together on the
 * event loop's next turn; calls made while a run is in flight wait for it and then go together, at most
 * `max` to a run. A lone caller waits one turn, and under load each run serves everyone who arrived
 * during the last. `run` answers one result per item, in the items' order; when it fails, every caller
 * of that run gets its error.
 */
export function batched<In, Out>(
  run: (items: In[]) => Promise<Out[]>,
  max = 200,
): (item: In) => Promise<Out> {
  const waiting: Array<{ item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = []
  let running = false
  function next(): void {
    const batch = waiting.splice(0, max)
    running = batch.length > 0
    if (!running) return
    Promise.resolve()
      .then(() => run(batch.map((w) => w.item)))
      .then(
        (outs) => {
          for (const [i, w] of batch.entries()) w.resolve(outs[i] as Out)
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err)
        },
      )
      .finally(next)
  }
  return (item) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject })
      if (!running) {
        running = true
        setImmediate(next)
      }
    })
}
