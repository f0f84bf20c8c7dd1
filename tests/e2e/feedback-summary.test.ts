import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, PHONE_WIDTH } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Set FEEDBACK_SCREENSHOTS=/some/dir to keep screenshots of the summary at 1280 and 390 px.
const SHOTS = process.env.FEEDBACK_SCREENSHOTS

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

/** A visitor signs in at the door and rates from its phone, as the guest pages send it. */
async function guestRates(openHouseId: number, ratings: Record<string, number | ''>, text?: string) {
  const signIn = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Rater',
      prospectLastName: 'Guest',
      prospectEmailId: `rater-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
    },
  })
  expect(signIn.status).toBe(201)
  const feedback = await t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId,
      prospectId: signIn.body.data.id,
      guestToken: signIn.body.data.guestToken,
      feedbackText: text,
      ...ratings,
    },
  })
  expect(feedback.status).toBe(201)
}

async function shot(summary: Locator, name: string) {
  if (!SHOTS) return
  fs.mkdirSync(SHOTS, { recursive: true })
  await summary.screenshot({ path: path.join(SHOTS, `${name}.png`) })
}

/** Nothing in the summary reaches past its card (no sideways scroll on a phone). */
const overflows = (summary: Locator) =>
  summary.evaluate((section) => {
    const right = section.getBoundingClientRect().right
    return [...section.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > right + 0.5)
      .map((el) => el.outerHTML.slice(0, 80))
  })

describe('the feedback summary on the host board', () => {
  it('charts only the rated aspects with their averages as text, and "Show all" reveals the rest', {
    timeout: 60_000,
  }, async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Sasha', lastName: 'Summary' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const board = await signedIn(host)
    await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
    const summary = board.getByRole('region', { name: 'Feedback Summary' })
    await summary.getByText('No feedback yet.', { exact: false }).waitFor()
    expect(await summary.getByRole('button', { name: 'Show all' }).count()).toBe(0)
    await shot(summary, 'summary-empty-1280')
    await expectAccessible(board, 'the feedback summary with no feedback yet', { alsoAtPhoneWidth: true })

    // Two guests rate: the overall experience twice, the kitchen twice, the agent's knowledge once.
    await guestRates(oh.id, { overallExperience: 5, kitchen: 4, agentKnowledge: 4 }, 'Lovely light.')
    await guestRates(oh.id, { overallExperience: 4, kitchen: 2, homePrice: '' }, 'The kitchen is small.')
    await board.reload()
    await summary.getByText('2 guests gave feedback').waitFor()

    const rows = async (section: string) =>
      (await summary.getByRole('list', { name: section }).getByRole('listitem').allTextContents()).map((r) =>
        r.replace(/(\d) of/, ' $1 of'),
      )
    expect(await rows('Other')).toEqual(['Overall Experience 5 of 5 · 2 ratings'])
    expect(await rows('Interior')).toEqual(['Kitchen 3 of 5 · 2 ratings'])
    expect(await rows('Hosting agent')).toEqual(['Knowledge 4 of 5 · 1 rating'])
    // Sections nobody rated show no chart, and no aspect nobody rated shows as a bar.
    expect(await summary.getByRole('list', { name: 'Exterior' }).count()).toBe(0)
    expect(await summary.locator('.feedback-bar').count()).toBe(3)
    // The bar is drawn as long as the average (3 of 5 is 60 %), its value and count also written out.
    const kitchenBar = summary
      .getByRole('listitem')
      .filter({ hasText: 'Kitchen' })
      .locator('.feedback-bar__fill')
    expect(await kitchenBar.evaluate((bar) => bar.style.width)).toBe('60%')
    expect(await summary.getByRole('heading', { name: 'Not rated yet' }).count()).toBe(0)

    const showAll = summary.getByRole('button', { name: 'Show all' })
    expect(await showAll.getAttribute('aria-expanded')).toBe('false')
    await summary.getByText('28 aspects not rated yet').waitFor()
    await shot(summary, 'summary-rated-1280')
    await expectAccessible(board, 'the feedback summary, rated aspects only')
    await showAll.focus()
    await board.keyboard.press('Enter')
    expect(await showAll.getAttribute('aria-expanded')).toBe('true')
    await summary.getByRole('heading', { name: 'Not rated yet' }).waitFor()
    expect(await summary.getByText('Lot, Curb Appeal, Front Yard, Back Yard').isVisible()).toBe(true)
    expect(
      await summary
        .getByText('Home Location, Home Condition, Home Price, Home Neighborhood, Meets My Criteria')
        .isVisible(),
    ).toBe(true)
    await summary.getByText('The kitchen is small.').waitFor()
    await summary.getByText('Lovely light.').waitFor()
    await shot(summary, 'summary-all-1280')
    await expectAccessible(board, 'the feedback summary with every aspect shown', { alsoAtPhoneWidth: true })

    await board.setViewportSize({ width: PHONE_WIDTH, height: 844 })
    expect(await overflows(summary)).toEqual([])
    await shot(summary, 'summary-all-390')
    await showAll.click()
    expect(await showAll.getAttribute('aria-expanded')).toBe('false')
    expect(await summary.getByRole('heading', { name: 'Not rated yet' }).count()).toBe(0)
    expect(await overflows(summary)).toEqual([])
    await shot(summary, 'summary-rated-390')
  })

  it('says so when guests only wrote comments, and lists every aspect as not rated yet', async () => {
    const host = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    await guestRates(oh.id, { kitchen: '' }, 'Nice street.')
    const board = await signedIn(host)
    await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
    const summary = board.getByRole('region', { name: 'Feedback Summary' })
    await summary.getByText('1 guest gave feedback').waitFor()
    await summary.getByText('No aspect has a rating yet: guests only wrote comments.').waitFor()
    expect(await summary.locator('.feedback-bar').count()).toBe(0)
    await summary.getByText('31 aspects not rated yet').waitFor()
    await summary.getByRole('button', { name: 'Show all' }).click()
    await summary.getByText('Lot, Curb Appeal, Front Yard, Back Yard').waitFor()
    await summary.getByText('Nice street.').waitFor()
    await expectAccessible(board, 'the feedback summary of comments only', { alsoAtPhoneWidth: true })
  })
})
