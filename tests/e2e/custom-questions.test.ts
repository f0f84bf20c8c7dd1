import { rooms } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Issue 14's custom questions, end to end: the agent writes two on the schedule form, a visitor
// answers them on a phone, and the host's board shows the answers as they arrive.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn, newPage } = browserHarness(() => t)
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

it('lets the agent ask two questions that a visitor answers on a phone and the board shows', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Asha', lastName: 'Asker' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })

  // The schedule form: two questions, the first left empty at first.
  const page = await signedIn(agent)
  await page.goto(`${t.url}/openhouses/schedule/${oh.id}/edit`)
  await expect.poll(() => heading(page)).toBe('Edit Open House')
  await page.getByRole('button', { name: 'Add a question' }).click()
  await page.getByRole('button', { name: 'Add a question' }).click()
  await page.getByRole('textbox', { name: 'Question 2' }).fill('Are you pre-approved?')
  await page.getByRole('button', { name: /Answer type for question 2/ }).click()
  await page.getByRole('option', { name: 'Yes / No' }).click()
  await page.getByRole('button', { name: 'Update' }).click()
  await page.getByText('The question is required').first().waitFor()
  // Nothing typed is lost, and the form says what to fix.
  expect(await page.getByRole('textbox', { name: 'Question 2' }).inputValue()).toBe('Are you pre-approved?')
  await expectAccessible(page, 'the schedule form with a question to fix', { alsoAtPhoneWidth: true })
  await page.getByRole('textbox', { name: 'Question 1' }).fill('What would you change about the house?')
  await expectAccessible(page, 'the schedule form with two questions', { alsoAtPhoneWidth: true })
  await page.getByRole('button', { name: 'Update' }).click()
  await page.waitForURL(/\/confirm\?/)
  const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: agent.token })
  expect(
    details.body.data.customQuestions.map((q: { text: string; kind: string }) => [q.text, q.kind]),
  ).toEqual([
    ['What would you change about the house?', 'text'],
    ['Are you pre-approved?', 'yesno'],
  ])

  // The host's board, listening for guests.
  const board = await signedIn(agent)
  await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
  await expect.poll(() => heading(board)).toBe('Manage Attendees')
  await expect
    .poll(() =>
      [...t.app.deps.realtime.io.of('/').sockets.values()].some(
        (socket) => socket.data.agentId === agent.agent.id && socket.rooms.has(rooms.openHouse(oh.id)),
      ),
    )
    .toBe(true)

  // A visitor's phone.
  const guest = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  await guest.goto(
    `${t.url}/public/OpenHouseToday/new?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${agent.agent.id}`,
  )
  await guest.getByRole('textbox', { name: 'First Name', exact: true }).fill('Pia')
  await guest.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Phone')
  await guest.getByRole('textbox', { name: 'Email', exact: true }).fill('pia.phone@example.com')
  await guest.getByRole('textbox', { name: 'Phone', exact: true }).fill('404 555 0175')
  await guest.getByRole('textbox', { name: 'What would you change about the house?' }).fill('A bigger porch')
  await guest
    .getByRole('group', { name: 'Are you pre-approved?' })
    .getByRole('radio', { name: 'Yes' })
    .check()
  await expectAccessible(guest, 'the sign-in page with the questions', { alsoAtPhoneWidth: true })
  await guest.getByRole('button', { name: 'Sign In' }).click()
  await guest.waitForURL(/\/new\/confirm\?/)

  // The board shows the answers without a reload.
  const answers = board.getByTestId('custom-answers').first()
  await answers.getByText('A bigger porch').waitFor()
  expect(await answers.textContent()).toContain('Are you pre-approved?Yes')
  await expectAccessible(board, 'the board with the answers', { alsoAtPhoneWidth: true })

  // The prospect's details say what it answered, at which open house.
  await board.getByRole('button', { name: 'View Pia Phone' }).click()
  const dialog = board.getByRole('dialog', { name: 'Prospect Details' })
  const section = dialog.getByRole('region', { name: 'Answers to open house questions' })
  await section.getByText('A bigger porch').waitFor()
  expect(await section.textContent()).toContain('Are you pre-approved?Yes')
  await expectAccessible(board, 'the prospect details with its answers', { alsoAtPhoneWidth: true })
  // Three browsers and seven axe runs on a shared two-core machine.
}, 120_000)
