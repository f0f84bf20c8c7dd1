// Web Push for agents (issue 34, decision 050), against a push service of the test's own: an offer to a
// team reaches each subscribed member's browser, signed (VAPID) and encrypted for that browser alone,
// carrying a single-use claim capability; a 410 removes the subscription; a claim from the notification
// is the agent's own claim, once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import {
  type Browser,
  newBrowser,
  newVapidKeys,
  type PushService,
  startPushService,
  verifyVapid,
} from '../support/push-service.ts'
import { connectSocket } from '../support/socket.ts'
import { guestSignIn } from '../support/webhook-receiver.ts'

let t: TestApp
let service: PushService
const vapid = newVapidKeys()

beforeAll(async () => {
  service = await startPushService()
  t = await buildTestApp({
    env: {
      PUSH_ALLOW_PRIVATE_TARGETS: 'true',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@porchlight.test',
    },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await service?.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function subscribe(agent: Agent, name: string): Promise<Browser & { id: number }> {
  const browser = newBrowser(service, name)
  const res = await t.call('POST', '/notificationmgmt/savePushSubscription', {
    token: agent.token,
    body: browser.subscription,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { ...browser, id: res.body.data.id }
}

async function until<T>(read: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = read()
    if (value) return value
    if (Date.now() > end) throw new Error('not within time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Lena leads a team with Cora and Max; Otto is of the same firm only. Each has a browser subscribed. */
async function aTeamWithBrowsers() {
  const lena = await makePlannedAgent(t.db, { firstName: 'Lena', role: 'Team Lead' })
  const cora = await makePlannedAgent(t.db, { firstName: 'Cora' })
  const max = await makePlannedAgent(t.db, { firstName: 'Max' })
  const otto = await makePlannedAgent(t.db, { firstName: 'Otto' })
  await makeTeam(t.db, lena, [cora, max])
  const browsers = {
    lena: await subscribe(lena, 'lena'),
    cora: await subscribe(cora, 'cora'),
    max: await subscribe(max, 'max'),
    otto: await subscribe(otto, 'otto'),
  }
  return { lena, cora, max, otto, browsers }
}

async function offeredToTeam() {
  const world = await aTeamWithBrowsers()
  const oh = await scheduleOpenHouse(t, world.lena)
  const started = Date.now()
  const res = await publish(t, world.lena, oh.id, 'Real Estate Team')
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const { cora, max } = world.browsers
  await until(() => service.at(cora.path).length > 0 && service.at(max.path).length > 0)
  return { ...world, oh, started, address: res.body.data.reProperty.completePropertyAddress as string }
}

describe('an offer to a team', () => {
  it('reaches every subscribed member within 5 s, signed with VAPID and readable by that browser alone', async () => {
    const { oh, browsers, started, address } = await offeredToTeam()
    for (const b of [browsers.cora, browsers.max]) {
      const [push] = service.at(b.path)
      if (!push) throw new Error('no push')
      expect(push.at - started).toBeLessThan(5000)
      const claims = verifyVapid(push.headers.authorization, vapid.publicKey, service.url)
      expect(claims.sub).toBe('mailto:ops@porchlight.test')
      expect(push.headers['content-encoding']).toBe('aes128gcm')
      expect(push.headers.urgency).toBe('high')
      expect(Number(push.headers.ttl)).toBeGreaterThan(0)
      const payload = b.decrypt(push.body)
      expect(payload.openHouseId).toBe(oh.id)
      expect(payload.claimToken).toMatch(/^[\w-]{43}$/)
      // A locked screen shows the address and the time, nothing more.
      expect(payload.body).toContain(address)
      expect(payload.actions).toEqual([{ action: 'claim', title: 'Claim' }])
      // Another browser's keys do not open it.
      const other = b === browsers.cora ? browsers.max : browsers.cora
      expect(() => other.decrypt(push.body)).toThrow()
    }
    // Each member has a capability of its own.
    const tokens = [browsers.cora, browsers.max].map(
      (b) => b.decrypt(service.at(b.path)[0]?.body ?? Buffer.alloc(0)).claimToken,
    )
    expect(new Set(tokens).size).toBe(2)
    // The listing agent and an agent the team's offer does not reach are told nothing.
    await new Promise((r) => setTimeout(r, 500))
    expect(service.at(browsers.lena.path)).toHaveLength(0)
    expect(service.at(browsers.otto.path)).toHaveLength(0)
    // Only the hash of a capability is stored.
    const stored = await t.db
      .selectFrom('pushClaimToken')
      .select('tokenHash')
      .where('openHouseId', '=', oh.id)
      .execute()
    expect(stored).toHaveLength(2)
    for (const token of tokens) expect(stored.map((s) => s.tokenHash)).not.toContain(token)
  })

  it('removes a subscription the push service answers 410 for', async () => {
    const world = await aTeamWithBrowsers()
    service.answers.set(world.browsers.max.path, { status: 410 })
    const oh = await scheduleOpenHouse(t, world.lena)
    expect((await publish(t, world.lena, oh.id, 'Real Estate Team')).status).toBe(200)
    await until(
      () => service.at(world.browsers.max.path).length > 0 && service.at(world.browsers.cora.path).length > 0,
    )
    // The subscription goes, with what waited for it; the agent's list is empty.
    const end = Date.now() + 5000
    let rows = [{ id: 0 }]
    while (rows.length > 0 && Date.now() < end) {
      rows = await t.db
        .selectFrom('pushSubscription')
        .select('id')
        .where('id', '=', world.browsers.max.id)
        .execute()
      if (rows.length > 0) await new Promise((r) => setTimeout(r, 50))
    }
    expect(rows).toHaveLength(0)
    const list = await t.call('GET', '/notificationmgmt/getPushSubscriptions', { token: world.max.token })
    expect(list.body.data).toEqual([])
    // Cora's browser, which answered 201, keeps its subscription.
    const cora = await t.call('GET', '/notificationmgmt/getPushSubscriptions', { token: world.cora.token })
    expect(cora.body.data.map((s: { id: number }) => s.id)).toEqual([world.browsers.cora.id])
  })
})

describe('a busy push service', () => {
  it('is asked again no sooner than its Retry-After says, and the push then arrives once', async () => {
    const world = await aTeamWithBrowsers()
    service.answers.set(world.browsers.max.path, [{ status: 429, headers: { 'retry-after': '6' } }])
    const oh = await scheduleOpenHouse(t, world.lena)
    expect((await publish(t, world.lena, oh.id, 'Real Estate Team')).status).toBe(200)
    const refused = await until(() => service.at(world.browsers.max.path)[0])
    const again = await until(() => service.at(world.browsers.max.path)[1], 15_000)
    expect(again.at - refused.at).toBeGreaterThanOrEqual(6000)
    await new Promise((r) => setTimeout(r, 500))
    expect(service.at(world.browsers.max.path)).toHaveLength(2)
    expect(world.browsers.max.decrypt(again.body).openHouseId).toBe(oh.id)
  }, 30_000)
})

describe('claim from the notification', () => {
  const tokenOf = (b: Browser) =>
    b.decrypt(service.at(b.path)[0]?.body ?? Buffer.alloc(0)).claimToken as string
  const claim = (claimToken: string, token?: string) =>
    t.call('POST', '/public/claimFromNotification', { body: { claimToken }, ...(token ? { token } : {}) })

  it('gives the house to one of two members claiming at once; the other hears it was claimed; a token works once', async () => {
    const { oh, browsers, cora, max } = await offeredToTeam()
    const [a, b] = await Promise.all([claim(tokenOf(browsers.cora)), claim(tokenOf(browsers.max))])
    const answers = [a, b].map((r) => r.status).sort()
    expect(answers).toEqual([200, 409])
    const winner = a.status === 200 ? a : b
    const loser = a.status === 200 ? b : a
    expect(loser.body.error.code).toBe('ALREADY_CLAIMED')
    expect(loser.body.error.message).toBe("Couldn't claim the Open House Opportunity!")
    expect(winner.body.data.message).toMatch(/^You're hosting /)
    const row = await t.db
      .selectFrom('openHouse')
      .select('hostingReAgentId')
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect([cora.agent.id, max.agent.id]).toContain(row.hostingReAgentId)
    // Each device's offer is replaced (same tag and topic) by who won: "You're hosting" or "Claimed".
    for (const [device, won] of [
      [browsers.cora, winner === a],
      [browsers.max, winner === b],
    ] as const) {
      const [offer, outcome] = await until(() => {
        const got = service.at(device.path)
        return got.length >= 2 ? got : undefined
      })
      if (!offer || !outcome) throw new Error('no outcome')
      const told = device.decrypt(outcome.body)
      expect(told).toMatchObject({
        type: won ? 'won' : 'lost',
        tag: `open-house-${oh.id}`,
        openHouseId: oh.id,
      })
      expect(told.claimToken).toBeUndefined()
      expect(outcome.headers.topic).toBe(offer.headers.topic)
    }
    // Used once: a second use is gone.
    const again = await claim(tokenOf(a.status === 200 ? browsers.cora : browsers.max))
    expect(again.status).toBe(410)
  })

  it('refuses a token used by another signed-in agent, and a token whose offer has ended', async () => {
    const { oh, browsers, otto, cora } = await offeredToTeam()
    const coraToken = tokenOf(browsers.cora)
    const asOtto = await claim(coraToken, otto.token)
    expect(asOtto.status).toBe(403)
    // Refused, the capability is kept for its agent; but once its offer ends it is gone.
    await t.db
      .updateTable('pushClaimToken')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('openHouseId', '=', oh.id)
      .execute()
    const expired = await claim(coraToken, cora.token)
    expect(expired.status).toBe(410)
    const row = await t.db
      .selectFrom('openHouse')
      .select('hostingReAgentId')
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect(row.hostingReAgentId).toBeNull()
    expect((await claim('x'.repeat(43))).status).toBe(404)
  })
})

describe("an agent's own news", () => {
  const firm = () => `FIRM-${Math.random().toString(36).slice(2, 10)}`

  it('tells a firm decision and a team invitation as the agent chose, with no name on the locked screen', async () => {
    const license = firm()
    const lena = await makePlannedAgent(t.db, {
      firstName: 'Lena',
      role: 'Team Lead',
      brokerFirmLicense: license,
    })
    const pia = await makePlannedAgent(t.db, {
      firstName: 'Pia',
      brokerFirmLicense: license,
      firmStatus: 'pending',
    })
    const max = await makePlannedAgent(t.db, { firstName: 'Max', brokerFirmLicense: license })
    const piaBrowser = await subscribe(pia, 'pia')
    const maxBrowser = await subscribe(max, 'max')
    const teamId = await makeTeam(t.db, lena, [])

    expect(
      (await t.call('POST', `/reagentmgmt/approveFirmMember/${pia.agent.id}`, { token: lena.token })).status,
    ).toBe(200)
    const decided = await until(() => service.at(piaBrowser.path)[0])
    const decision = piaBrowser.decrypt(decided.body)
    expect(decision).toMatchObject({ event: 'firm.decision', url: '/mystuff' })
    expect(JSON.stringify(decision)).not.toContain('Lena')

    // Pia turns team invitations off; Max keeps the defaults.
    const saved = await t.call('POST', '/notificationmgmt/notificationSettings', {
      token: pia.token,
      body: {
        events: ['offer.team', 'claim.won'],
        quietHours: { start: '22:00', end: '07:00' },
        timeZone: 'America/New_York',
      },
    })
    expect(saved.status).toBe(200)
    const read = await t.call('GET', '/notificationmgmt/notificationSettings', { token: pia.token })
    expect(read.body.data).toEqual(saved.body.data)

    for (const who of [pia, max]) {
      const added = await t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lena.token,
        body: { reTeamId: teamId, reAgentId: who.agent.id },
      })
      expect(added.status, JSON.stringify(added.body)).toBe(201)
    }
    const invited = await until(() => service.at(maxBrowser.path)[0])
    expect(maxBrowser.decrypt(invited.body)).toMatchObject({
      event: 'team.invitation',
      title: 'Team invitation',
    })
    await new Promise((r) => setTimeout(r, 800))
    expect(service.at(piaBrowser.path)).toHaveLength(1)
  })

  it('refuses settings that name no real event or time zone, and a subscription without browser keys', async () => {
    const ann = await makePlannedAgent(t.db, { firstName: 'Ann' })
    const bad = await t.call('POST', '/notificationmgmt/notificationSettings', {
      token: ann.token,
      body: {
        events: ['everything'],
        quietHours: { start: '25:00', end: '07:00' },
        timeZone: 'Mars/Olympus',
      },
    })
    expect(bad.status).toBe(422)
    const keyless = await t.call('POST', '/notificationmgmt/savePushSubscription', {
      token: ann.token,
      body: { endpoint: `${service.url}/push/x`, keys: { p256dh: 'abc', auth: 'def' } },
    })
    expect(keyless.status).toBe(422)
  })
})

describe('a guest at the door', () => {
  it("tells the host of a sign-in only while the host's board is not open, naming no guest", async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Hal' })
    const browser = await subscribe(host, 'hal')
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })

    // The board open on another screen: the guest shows there, no push.
    const board = await connectSocket(t.url, { token: host.token })
    try {
      expect(await board.emitWithAck('watch', { openHouseId: oh.id })).toEqual({ ok: true })
      await guestSignIn(t, oh.id)
      await new Promise((r) => setTimeout(r, 1000))
      expect(service.at(browser.path)).toHaveLength(0)
    } finally {
      board.close()
    }

    // The board closed: the next guest is pushed, with the address and time only.
    await guestSignIn(t, oh.id)
    const push = await until(() => service.at(browser.path)[0])
    const told = browser.decrypt(push.body)
    expect(told).toMatchObject({ event: 'guest.signedIn', title: 'A guest signed in', openHouseId: oh.id })
    expect(JSON.stringify(told)).not.toMatch(/Gina|Visitor|@example\.com|555/)

    // A burst of guests at the door buzzes the phone once a quarter second, not once a guest: the
    // pushes would only replace each other (a slow machine may spread eight sign-ins over a few).
    await Promise.all(Array.from({ length: 8 }, () => guestSignIn(t, oh.id)))
    await until(() => service.at(browser.path)[1])
    await new Promise((r) => setTimeout(r, 1000))
    expect(service.at(browser.path).length - 1).toBeLessThanOrEqual(3)
  })
})
