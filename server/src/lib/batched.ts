/**
 * Lets concurrent callers share one round trip. Calls made while nothing is running go together on the
 * event loop's next turn; calls made while `inFlight` runs are out wait for one of them to end and then
 * go together, at most `max` to a run. A lone caller waits one turn, and under load each run serves
 * everyone who arrived during the last. With `inFlight` above one (one unless told), calls arriving
 * while fewer runs are out go on the next turn instead of queueing behind a run they could not join: a
 * burst spread over a few milliseconds goes in a few runs side by side, not in runs one after another.
 * `run` answers one result per item, in the items' order; when it fails, every caller of that run gets
 * its error.
 */
export function batched<In, Out>(
  run: (items: In[]) => Promise<Out[]>,
  max = 200,
  inFlight = 1,
): (item: In) => Promise<Out> {
  const waiting: Array<{ item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = []
  let running = 0
  let turnAsked = false
  function next(): void {
    while (running < inFlight && waiting.length > 0) {
      const batch = waiting.splice(0, max)
      running++
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
        .finally(() => {
          running--
          next()
        })
    }
  }
  return (item) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject })
      if (running < inFlight && !turnAsked) {
        turnAsked = true
        setImmediate(() => {
          turnAsked = false
          next()
        })
      }
    })
}
