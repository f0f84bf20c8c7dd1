import { messages } from '@porchlight/shared'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, scheduleFields } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

let t: TestApp
let listing: Agent
let claimers: Agent[]

beforeAll(async () => {
  t = await buildTestApp({ env: { RATE_LIMIT_MAX: '1000000' } })
  listing = await makePlannedAgent(t.db)
  claimers = []
  for (let i = 0; i < 50; i++) claimers.push(await makePlannedAgent(t.db))
})
afterAll(() => t.close())

/**
 * A new open house of the listing agent's, published, and every racer's claim on it at once, the i-th
 * through `via(i)` (this test's app unless told): the open house and the answers, in the racers' order.
 */
async function race(racers: Agent[], via: (i: number) => TestApp = () => t) {
  const oh = await scheduleOpenHouse(t, listing)
  expect((await publish(t, listing, oh.id)).status).toBe(200)
  const answers = await Promise.all(
    racers.map((c, i) =>
      via(i).call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${c.agent.id}`, { token: c.token }),
    ),
  )
  return { oh, answers }
}

/** The host the database holds for the open house. */
const hostOf = async (id: number) =>
  (
    await t.db
      .selectFrom('openHouse')
      .select('hostingReAgentId')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).hostingReAgentId

describe('the claim race', () => {
  it('gives the claim to exactly one of 50 simultaneous agents, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const { oh, answers } = await race(claimers)
      const won = answers.filter((a) => a.status === 200)
      const lost = answers.filter((a) => a.status === 409)
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(49)
      for (const l of lost)
        expect(l.body.error).toEqual({ code: 'ALREADY_CLAIMED', message: messages.claimFailed })
      expect(await hostOf(oh.id)).toBe(won[0]?.body.data.hostingREAgentId)
      expect(won[0]?.body.data.status).toBe('Hosted')
    }
  }, 120_000)

  it("lets a claim win when the claim ahead of it in the race could not (the listing agent's own)", async () => {
    // Claims that arrive while another's statement is in flight wait for it, and lose only if it found
    // the house hosted: a refused claim ahead of them must leave the race to them.
    for (let round = 0; round < 20; round++) {
      const { answers } = await race([listing, ...claimers.slice(0, 5)])
      expect(answers[0]?.status).not.toBe(200)
      const others = answers.slice(1)
      expect(others.filter((a) => a.status === 200)).toHaveLength(1)
      expect(others.filter((a) => a.status === 409)).toHaveLength(4)
    }
  }, 60_000)

  it('answers a claim that arrived before the winning statement from that statement, sending none of its own', async () => {
    // In a race of agents not seen lately, most claims come out of their session read after the first
    // claim has won. One whose request arrived before that claim's statement was sent overlapped it: the
    // house was hosted at a moment between its arrival and its answer, and it has lost. Here its session
    // read is held until another agent's claim has won, and every write to open houses is then held: a
    // claim that sent a statement of its own would wait for it.
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)
    // New agents (every session kept is forgotten as they are written); then the first agent's session
    // is kept by a request of its own, and the late one's is not.
    const first = await makePlannedAgent(t.db)
    const late = await makePlannedAgent(t.db)
    await t.call('GET', `/reagentmgmt/getREAgentDetails/${first.agent.id}`, { token: first.token })
    const sessions = new pg.Client({ connectionString: t.database.url })
    const writes = new pg.Client({ connectionString: t.database.url })
    await Promise.all([sessions.connect(), writes.connect()])
    try {
      await sessions.query('begin')
      await sessions.query('lock table session in access exclusive mode')
      const lateAnswer = t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${late.agent.id}`, {
        token: late.token,
      })
      const waitingOnSessions = async () =>
        (
          await writes.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and query like '%"session"%'`,
          )
        ).rows[0].n
      await expect.poll(waitingOnSessions, { timeout: 10_000, interval: 20 }).toBe(1)
      const won = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${first.agent.id}`, {
        token: first.token,
      })
      expect(won.status).toBe(200)
      await writes.query('begin')
      await writes.query('lock table open_house in share mode')
      await sessions.query('commit')
      const answered = await Promise.race([
        lateAnswer,
        new Promise<undefined>((resolve) => setTimeout(resolve, 5000)),
      ])
      expect(answered, 'the late claim sent a statement of its own').toBeDefined()
      expect(answered?.status).toBe(409)
      expect(answered?.body.error).toEqual({ code: 'ALREADY_CLAIMED', message: messages.claimFailed })
    } finally {
      await writes.query('rollback').catch(() => {})
      await sessions.query('rollback').catch(() => {})
      await Promise.all([sessions.end(), writes.end()])
    }
    expect(await hostOf(oh.id)).toBe(first.agent.id)
  })

  it('gives the claim to exactly one agent when the race is split over two API processes', async () => {
    // Each process lets its own racers wait on its own statement; only PostgreSQL decides between them.
    const other = await buildTestApp({ sameAs: t, ownConnections: true, env: { RATE_LIMIT_MAX: '1000000' } })
    try {
      for (let round = 0; round < 10; round++) {
        const { oh, answers } = await race(claimers.slice(0, 20), (i) => (i % 2 === 0 ? t : other))
        const won = answers.filter((a) => a.status === 200)
        expect(won).toHaveLength(1)
        expect(answers.filter((a) => a.status === 409)).toHaveLength(19)
        expect(await hostOf(oh.id)).toBe(won[0]?.body.data.hostingREAgentId)
      }
    } finally {
      await other.close()
    }
  }, 60_000)

  it('never undoes a claim that answered: 1,000 rounds of an edit or a publish racing a claim', async () => {
    // Ten listing agents race side by side (each agent's own creates are serialised for its plan limit).
    const LANES = 10
    const ROUNDS_PER_LANE = 100
    const lanes = await Promise.all(Array.from({ length: LANES }, () => makePlannedAgent(t.db)))
    let lost = 0
    let raced = 0
    await Promise.all(
      lanes.map(async (owner, lane) => {
        const claimer = claimers[lane]
        if (!claimer) throw new Error('no claimer')
        for (let round = 0; round < ROUNDS_PER_LANE; round++) {
          const oh = await scheduleOpenHouse(t, owner)
          expect((await publish(t, owner, oh.id)).status).toBe(200)
          const claim = t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${claimer.agent.id}`, {
            token: claimer.token,
          })
          // Half the rounds race an edit of the open house, half a publish (which may answer 409 once hosted).
          const other =
            round % 2 === 0
              ? t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
                  token: owner.token,
                  body: scheduleFields(oh.rePropertyId, { openHouseInstructions: `edit ${round}` }),
                })
              : publish(t, owner, oh.id)
          const [claimed] = await Promise.all([claim, other])
          const host = await hostOf(oh.id)
          raced++
          if (claimed.status === 200 && host !== claimer.agent.id) lost++
        }
      }),
    )
    expect(raced).toBe(1000)
    expect(lost).toBe(0)
  }, 300_000)
})
