// `pnpm bench claim`: 200 agents race for one opportunity while their 200 sockets watch, from a process
// of their own (claim-racers.ts), so the server keeps its CPU. Prints the winners, claim latency, how
// long until every watcher has heard who won and the server's CPU per claim, for the first races after
// the server starts and again once it is warm, and the same race done with bare pg updates (no HTTP, no
// rules, no sockets) in the same run as the baseline, taking turns with the warm races.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { publish, scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { barePool, pct, report, startBenchApp } from './support.ts'

const AGENTS = 200
const ROUNDS = 5
const WARM_UP_ROUNDS = 15
/**
 * Warm races counted a side, each of ours followed by a bare one, so both meet the machine alike: 30,
 * as ten could not tell a 10 % change on a quiet machine (decision 069). `BENCH_CLAIM_ROUNDS` sets
 * fewer for a quick look; the races whose sessions are not kept wait twice the session cache's time a
 * round (about eleven seconds).
 */
const WARM_ROUNDS = Number(process.env.BENCH_CLAIM_ROUNDS ?? 30)

export async function run() {
  const bench = await startBenchApp()
  const call = apiCaller(bench.url)
  const t = { call, db: bench.db } as never
  let racers: ReturnType<typeof spawn> | undefined
  try {
    const listing = await makePlannedAgent(bench.db)
    const agents: Array<Awaited<ReturnType<typeof makePlannedAgent>>> = []
    for (let i = 0; i < AGENTS; i++) agents.push(await makePlannedAgent(bench.db))
    // The racers run under the V8 flags of this process, which sends the bare side's statements (`pnpm
    // bench`: --no-memory-reducer): both sides' clients meet a race alike after a pause. Without them V8
    // shrank the racers' heap in each pause of the races whose sessions are not kept, and the racers'
    // own collections in the race were counted as the server's latency (decision 071).
    racers = spawn(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'claim-racers.ts'),
        JSON.stringify({ url: bench.url, agents: agents.map((a) => ({ id: a.agent.id, token: a.token })) }),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    )
    const { stdin, stdout } = racers
    if (!stdout || !stdin) throw new Error('the racers have no input or output')
    const lines = readline.createInterface({ input: stdout })[Symbol.asyncIterator]()
    const next = async () => {
      const { value, done } = await lines.next()
      if (done) throw new Error('the racers stopped')
      return String(value)
    }
    if ((await next()) !== 'ready') throw new Error('the racers did not connect')

    /** One race per open house: every agent claims at once while the sockets watch. */
    const race = async () => {
      const oh = await scheduleOpenHouse(t, listing)
      await publish(t, listing, oh.id)
      const cpuBefore = process.cpuUsage()
      stdin.write(`${oh.id}\n`)
      const result = JSON.parse(await next()) as {
        claims: Array<{ status: number; ms: number; at: number }>
        heard: number[]
      }
      // The server runs in this process and does nothing else during the race.
      const used = process.cpuUsage(cpuBefore)
      return { ...result, cpuUs: used.user + used.system }
    }
    /**
     * `count` races; `after` runs after each (the bare race that takes turns with ours), `before` before
     * each, after the pause.
     */
    const races = async (
      count: number,
      pauseMs = 0,
      after?: () => Promise<void>,
      before?: () => Promise<void>,
    ) => {
      const claimLatency: number[] = []
      const fanOut: number[] = []
      const afterWin: number[] = []
      let serverCpuUs = 0
      let winners = 0
      let losers = 0
      for (let round = 0; round < count; round++) {
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
        await before?.()
        const { claims, heard, cpuUs } = await race()
        serverCpuUs += cpuUs
        const wonAt = claims.find((c) => c.status === 200)?.at ?? 0
        for (const c of claims) claimLatency.push(c.ms)
        winners += claims.filter((c) => c.status === 200).length
        losers += claims.filter((c) => c.status === 409).length
        for (const at of heard) {
          fanOut.push(at)
          afterWin.push(at - wonAt)
        }
        await after?.()
      }
      return {
        winners: `${winners}/${count}`,
        losers409: losers,
        claimP50: pct(claimLatency, 50),
        claimP99: pct(claimLatency, 99),
        heardFromRaceStartP99: pct(fanOut, 99),
        heardAfterWinnerAnsweredP99: pct(afterWin, 99),
        serverCpuMsPerClaim: Math.round(serverCpuUs / (AGENTS * count) / 10) / 100,
      }
    }
    // Baseline: the same race as bare conditional UPDATEs through a pg pool.
    const pool = barePool(bench.databaseUrl, 20)
    const bareLatency: number[] = []
    /** Bare races taking turns with the races whose sessions are not kept (their own p50 to compare). */
    const bareUnseenLatency: number[] = []
    /** Bare races taking turns with the races whose sessions were forgotten without a pause. */
    const bareForgottenLatency: number[] = []
    let bareWinners = 0
    let bareUnseenWinners = 0
    let bareForgottenWinners = 0
    const bareRace =
      (counted: boolean, into = bareLatency) =>
      async () => {
        const oh = await scheduleOpenHouse(t, listing)
        const rows = await Promise.all(
          agents.map(async (a) => {
            const sent = performance.now()
            const r = await pool.query(
              'update open_house set hosting_re_agent_id = $1 where id = $2 and hosting_re_agent_id is null returning id',
              [a.agent.id, oh.id],
            )
            if (counted) into.push(performance.now() - sent)
            return r.rowCount
          }),
        )
        const won = rows.filter((n) => n === 1).length
        if (counted && into === bareLatency) bareWinners += won
        if (counted && into === bareUnseenLatency) bareUnseenWinners += won
        if (counted && into === bareForgottenLatency) bareForgottenWinners += won
      }

    // A process just started runs its first thousands of requests before V8 has optimized them: the first
    // races are reported as they are, and the server is measured again once warm, as one that has been up
    // a while. The bare side gets the same warm-up, and its races take turns with ours.
    const cold = await races(ROUNDS)
    await races(WARM_UP_ROUNDS, 0, bareRace(false))
    const warm = await races(WARM_ROUNDS, 0, bareRace(true))
    // A warm server whose agents were last seen longer ago than the session cache keeps them
    // (SESSION_CACHE_MS): each claim reads its session and agent, and its teams, before its statement (a
    // race as agents meet it in the field). This is the field's case, so it is in the headline, beside
    // bare races that take turns with it; as many races as the warm case, so its median is as steady.
    // The bare race beside it waits as long first: a pause lets the machine cool (a bare race after one
    // took 15.1 ms at p50 against 10.4 ms right after ours, decision 069), and both sides meet it.
    const notKeptPauseMs = bench.app.deps.config.sessionCacheMs + 500
    const unseen = await races(WARM_ROUNDS, notKeptPauseMs, async () => {
      await new Promise((resolve) => setTimeout(resolve, notKeptPauseMs))
      await bareRace(true, bareUnseenLatency)()
    })
    // The same, with the sessions forgotten as any change of access makes every API process forget them
    // (NOTIFY access_changed, session-cache.ts) instead of by a pause: the server has not sat idle for
    // seconds before the race, as it has not in the field, where other agents keep it busy, and neither
    // side meets a machine cooled by a pause (a young-generation collection due, caches).
    const forgotten = await races(WARM_ROUNDS, 0, bareRace(true, bareForgottenLatency), async () => {
      await pool.query('notify access_changed')
      // Heard on the API's listening connection; a round trip of the pool's lets it arrive.
      await new Promise((resolve) => setTimeout(resolve, 100))
    })
    await pool.end()

    /** A bare side's row: its winners and latencies, nothing of the server (there is none). */
    const bareRow = (won: number, latency: number[]) => ({
      winners: `${won}/${WARM_ROUNDS}`,
      losers409: AGENTS * WARM_ROUNDS - won,
      claimP50: pct(latency, 50),
      claimP99: pct(latency, 99),
      heardFromRaceStartP99: '—',
      heardAfterWinnerAnsweredP99: '—',
      serverCpuMsPerClaim: '—',
    })
    const bareP50 = pct(bareLatency, 50)
    const bareUnseenP50 = pct(bareUnseenLatency, 50)
    const bareForgottenP50 = pct(bareForgottenLatency, 50)
    const headline = `claim p50 over bare: warm ${(warm.claimP50 / bareP50).toFixed(2)}×, sessions not kept ${(
      unseen.claimP50 / bareUnseenP50
    ).toFixed(2)}×, sessions forgotten without a pause ${(forgotten.claimP50 / bareForgottenP50).toFixed(2)}×`
    report('claim', `Claim race: ${AGENTS} agents, ${AGENTS} sockets watching (ms); ${headline}`, {
      [`porchlight, races 1–${ROUNDS} after start`]: cold,
      [`porchlight, warm (races ${ROUNDS + WARM_UP_ROUNDS + 1}–${ROUNDS + WARM_UP_ROUNDS + WARM_ROUNDS})`]:
        warm,
      'porchlight, warm, sessions not kept': unseen,
      'bare pg update after the same pause, taking turns with sessions not kept': bareRow(
        bareUnseenWinners,
        bareUnseenLatency,
      ),
      'porchlight, warm, sessions forgotten without a pause': forgotten,
      'bare pg update, taking turns with sessions forgotten': bareRow(
        bareForgottenWinners,
        bareForgottenLatency,
      ),
      'bare pg update, warm': bareRow(bareWinners, bareLatency),
      'warm p50 over bare': {
        winners: '',
        losers409: '',
        claimP50: (warm.claimP50 / bareP50).toFixed(2),
        claimP99: '',
        heardFromRaceStartP99: '',
        heardAfterWinnerAnsweredP99: '',
        serverCpuMsPerClaim: '',
      },
      'sessions not kept, p50 over bare (its own turns)': {
        winners: '',
        losers409: '',
        claimP50: (unseen.claimP50 / bareUnseenP50).toFixed(2),
        claimP99: '',
        heardFromRaceStartP99: '',
        heardAfterWinnerAnsweredP99: '',
        serverCpuMsPerClaim: '',
      },
      'sessions forgotten without a pause, p50 over bare (its own turns)': {
        winners: '',
        losers409: '',
        claimP50: (forgotten.claimP50 / bareForgottenP50).toFixed(2),
        claimP99: '',
        heardFromRaceStartP99: '',
        heardAfterWinnerAnsweredP99: '',
        serverCpuMsPerClaim: '',
      },
    })
  } finally {
    racers?.stdin?.end()
    await bench.close()
  }
}
