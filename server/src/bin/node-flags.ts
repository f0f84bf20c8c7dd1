/**
 * V8 flags every server process starts with, the API's and the workers' (decisions 070, 074). Node takes
 * `--no-memory-reducer` only on the command line that starts the process: not in NODE_OPTIONS, which
 * allows a short list of V8 flags, nor once it runs (`v8.setFlagsFromString` leaves the heap as it was
 * set up). So each command that starts one carries them all: package.json's `start` (its API and worker
 * processes inherit them), the Dockerfile's CMD, docker-compose.yml's api and worker, and the benchmarks'
 * server processes; tests/api/server-node-flags.test.ts holds them to it.
 *
 * `--no-memory-reducer`: V8 shrinks an idle process's heap about eight seconds after its last large
 * collection, with collections of its own (`Mark-Compact (reduce)` in `--trace-gc`). The first burst
 * after a quiet spell (agents claiming an opportunity just offered, the first guests at a door) then
 * grows it again, page by page, under collections that come sooner: in `pnpm bench claim` the race after
 * eleven quiet seconds cost the API 0.47–0.50 ms of CPU a claim with it and 0.18–0.23 without. The heap
 * keeps the size its traffic gave it, as an API process kept busy does anyway.
 *
 * `--max-semi-space-size=32`: the young generation, where a request's objects are made and most of them
 * die, may grow to twice Node's 16 MB a half. A young collection copies what is still alive, and in a
 * burst that is every request in flight: the 200 claims of a race waiting on one session read were
 * copied collection after collection, then promoted to the old generation. In `pnpm bench claim` the
 * race whose sessions were just forgotten cost the API 0.21–0.41 ms of CPU a claim with 16 MB and
 * 0.18–0.19 with 32 (decision 074). The space grows only under such traffic (a process starts with 1 MB)
 * and adds at most 32 MB to a busy process.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=32']
