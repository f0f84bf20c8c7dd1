import { randomBytes } from 'node:crypto'
import { rooms } from '@porchlight/shared'
import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, tabTo } from '../support/browser.ts'
import { daysFromNow, makePlannedAgent, makeTeam } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

async function addressOf(openHouseId: number): Promise<string> {
  const row = await t.db
    .selectFrom('openHouse')
    .innerJoin('reProperty', 'reProperty.id', 'openHouse.rePropertyId')
    .select('reProperty.propertyAddress1')
    .where('openHouse.id', '=', openHouseId)
    .executeTakeFirstOrThrow()
  return row.propertyAddress1
}

async function prospect(
  owner: Agent,
  firstName: string,
  fields: { realtor?: boolean; followUp?: string } = {},
) {
  const row = await t.db
    .insertInto('prospect')
    .values({
      prospectFirstName: firstName,
      prospectLastName: 'Guest',
      prospectEmailId: `${firstName.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`,
      prospectPhoneNumber: '4045550123',
      workingWithReAgentFlag: fields.realtor ?? false,
      createdByReAgentId: owner.agent.id,
      nextFollowUpDate: fields.followUp ?? null,
      prospectStage: fields.followUp ? 'Nurturing' : 'New',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** A section of the overview, found by its heading. */
const section = (page: Page, title: string) => page.getByRole('region', { name: title })

describe('the dashboard', () => {
  it("shows what's next and who came, each item leading on, and the summary without a pager", async () => {
    const firm = `DASHWEB-${randomBytes(3).toString('hex')}`
    const ann = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Ann',
      lastName: 'Atwood',
    })
    const lead = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Lee',
      lastName: 'Lamp',
      role: 'Team Lead',
    })
    const mine = await scheduleOpenHouse(t, ann, {
      publishLevel: 'Hosting Myself',
      scheduledDate: daysFromNow(2),
    })
    const offered = await scheduleOpenHouse(t, ann, { scheduledDate: daysFromNow(3) })
    // Last week's open house (moved into the past: the API schedules from tomorrow on) had two guests.
    const past = await scheduleOpenHouse(t, ann)
    await t.db
      .updateTable('openHouse')
      .set({ scheduledDate: daysFromNow(-2), startsAt: null, endsAt: null })
      .where('id', '=', past.id)
      .execute()
    const gail = await prospect(ann, 'Gail', { realtor: true })
    const gus = await prospect(ann, 'Gus')
    await t.db
      .insertInto('openHouseAttendee')
      .values([gail, gus].map((prospectId) => ({ openHouseId: past.id, prospectId })))
      .execute()
    await t.db
      .insertInto('openHouseFeedback')
      .values({ openHouseId: past.id, prospectId: gus, overallExperience: 4 })
      .execute()
    await prospect(ann, 'Olga', { followUp: daysFromNow(-3) })
    await prospect(ann, 'Tess', { followUp: daysFromNow(3) })
    const teamId = await makeTeam(t.db, lead, [])
    await t.db
      .insertInto('reTeamMember')
      .values({ reTeamId: teamId, reAgentId: ann.agent.id, addedByReAgentId: lead.agent.id })
      .execute()
    const team = await t.db
      .selectFrom('reTeam')
      .select('reTeamName')
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow()

    const page = await signedIn(ann)
    await page.goto(`${t.url}/dashboard`)

    const week = section(page, 'Open houses this week')
    const mineItem = week.getByRole('listitem').filter({ hasText: await addressOf(mine.id) })
    await mineItem.waitFor()
    expect(await mineItem.textContent()).toContain('Host: Ann Atwood')
    expect(await mineItem.getByText('Hosted', { exact: true }).isVisible()).toBe(true)
    const offeredItem = week.getByRole('listitem').filter({ hasText: await addressOf(offered.id) })
    expect(await offeredItem.textContent()).toContain('No host yet')
    expect(await offeredItem.getByText('Not Hosted', { exact: true }).isVisible()).toBe(true)
    // Soonest first.
    expect(await week.getByRole('listitem').first().textContent()).toContain(await addressOf(mine.id))

    const leads = section(page, 'Leads this week')
    expect(await leads.getByRole('definition').allTextContents()).toEqual(['2', '1'])

    const followUps = section(page, 'Follow-ups due')
    const olga = followUps.getByRole('listitem').filter({ hasText: 'Olga Guest' })
    expect(await olga.getByText('Overdue').isVisible()).toBe(true)
    expect(await followUps.getByRole('listitem').nth(1).textContent()).toContain('Tess Guest')
    expect(
      await followUps.getByRole('link', { name: 'Olga Guest, in my prospects' }).getAttribute('href'),
    ).toBe('/prospects')

    const waiting = section(page, 'Waiting for you')
    expect(await waiting.getByText(`Invitation to ${team.reTeamName}`).isVisible()).toBe(true)

    const trend = page.getByRole('table', { name: 'Feedback trend, last 6 weeks' })
    expect(await trend.getByRole('row').count()).toBe(7)
    expect(await trend.getByRole('row').last().textContent()).toContain('4 of 5')

    // The SPEC summary keeps its columns; one row needs no pager.
    const summary = page.getByRole('table', { name: 'Overall Open House Summary' })
    await summary.waitFor()
    expect(await summary.getByRole('columnheader').allTextContents()).toEqual([
      'Agent',
      'Listed/Requested',
      'Hosted/Claimed',
      'Canceled',
      'Total Leads',
      'Leads Without Realtor',
    ])
    expect(await page.getByRole('button', { name: 'Previous' }).count()).toBe(0)
    expect(await page.getByText('Rows per page').count()).toBe(0)

    await expectAccessible(page, 'the dashboard with its week at a glance', { alsoAtPhoneWidth: true })

    // Keyboard: the host's next step is reachable with Tab, and leads to the attendee board.
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).click()
    const manage = week.getByRole('link', {
      name: `Manage attendees at ${await addressOf(mine.id)}`,
      exact: false,
    })
    await tabTo(page, manage)
    await page.keyboard.press('Enter')
    await page.waitForURL(
      new RegExp(`/openhouses/schedule/${mine.id}/manage\\?rePropertyId=${mine.rePropertyId}$`),
    )

    // The invitation's Answer points the teams section at it.
    await page.goBack()
    await waiting.getByRole('link', { name: `Answer the invitation to ${team.reTeamName}` }).click()
    await page.waitForURL(new RegExp(`/dashboard\\?invitation=${teamId}$`))
    await page.getByRole('listitem', { name: `Invitation to ${team.reTeamName}` }).waitFor()
  }, 90_000)

  it('says what to do next when the week is empty', async () => {
    const newcomer = await makePlannedAgent(t.db, { firstName: 'Nia', lastName: 'New' })
    const page = await signedIn(newcomer)
    await page.goto(`${t.url}/dashboard`)
    await section(page, 'Open houses this week').getByText('No open houses this week.').waitFor()
    for (const [title, text] of [
      ['Follow-ups due', 'No follow-ups due.'],
      ['Waiting for you', 'Nothing is waiting for your answer.'],
      ['Feedback trend', 'No feedback in the last 6 weeks.'],
    ] as const) {
      expect(await section(page, title).getByText(text).isVisible()).toBe(true)
    }
    expect(await section(page, 'Leads this week').getByRole('definition').allTextContents()).toEqual([
      '0',
      '0',
    ])
    await expectAccessible(page, 'the dashboard of a new agent', { alsoAtPhoneWidth: true })
  }, 60_000)

  it('refetches each dashboard query at most once per 500 ms through a long burst, and shows the last change', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Bea', lastName: 'Burst' })
    const page = await signedIn(agent)
    // The browser's own clock of when each request started (the events reach this process with jitter).
    const paths = { statistics: '/getDashboardStatistics/', overview: '/getDashboardOverview/' }
    const asked: Record<keyof typeof paths, Request[]> = { statistics: [], overview: [] }
    const failed: string[] = []
    page.on('request', (request) => {
      for (const query of ['statistics', 'overview'] as const) {
        if (request.url().includes(paths[query])) asked[query].push(request)
      }
    })
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/')) failed.push(`${request.url()} ${request.failure()?.errorText}`)
    })
    await page.goto(`${t.url}/dashboard`)
    await section(page, 'Follow-ups due').getByText('No follow-ups due.').waitFor()
    await page.getByRole('table', { name: 'Overall Open House Summary' }).waitFor()
    await page.waitForLoadState('networkidle')
    await expect
      .poll(() =>
        [...t.app.deps.realtime.io.of('/').sockets.values()].some((s) => s.data.agentId === agent.agent.id),
      )
      .toBe(true)
    const before = { statistics: asked.statistics.length, overview: asked.overview.length }

    // Two seconds of events, four every 100 ms; the change they tell of lands just before the last.
    const started = Date.now()
    for (let tick = 0; tick < 20; tick++) {
      if (tick === 19) await prospect(agent, 'Last', { followUp: daysFromNow(1) })
      for (let i = 0; i < 4; i++) {
        t.app.deps.realtime.emit(rooms.agent(agent.agent.id), 'stats.changed', { reAgentId: agent.agent.id })
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const burst = Date.now() - started

    await section(page, 'Follow-ups due').getByText('Last Guest').waitFor()
    await page.waitForLoadState('networkidle')
    for (const query of ['statistics', 'overview'] as const) {
      const requests = asked[query].slice(before[query])
      // The last refetch may still be answering when the page reads as idle; a request's entry in the
      // page's resource timing is written when its response has come.
      await Promise.all(requests.map((request) => request.response()))
      // When the page asked (fetch called), on the page's own clock: what the pacing decides. The
      // network layer's start of a request can lag the ask by a hundred milliseconds and more on a
      // busy machine, which would read as two asks closer together than they were.
      const asks = await page.evaluate(
        (path) =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.includes(path))
            .map((entry) => entry.startTime),
        paths[query],
      )
      expect(asks.length, `${query}: an ask in the page for each request seen`).toBe(asked[query].length)
      const times = asks.slice(before[query])
      expect(times.length, query).toBeGreaterThan(0)
      // At most one per 500 ms of burst, plus the trailing one.
      expect(times.length, query).toBeLessThanOrEqual(Math.ceil(burst / 500) + 1)
      const gaps = times.slice(1).map((at, i) => at - (times[i] ?? 0))
      expect(Math.min(...gaps, 500), `${query} gaps ${gaps.join(', ')}`).toBeGreaterThanOrEqual(450)
    }
    expect(failed).toEqual([])
  }, 60_000)
})
