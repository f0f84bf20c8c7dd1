import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { messages } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
/** Set SCREENSHOTS=dir to keep a picture of each screen the tests pass through. */
const shots = process.env.SCREENSHOTS

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const newFirm = () => `FIRM-${randomBytes(4).toString('hex')}`

const { signedIn } = browserHarness(() => t)

async function snap(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  // Let a dialog finish its 300 ms entrance (SPEC §9) before the picture.
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

async function arrive(page: Page, url: string | RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page)).toBe(title)
}

/** Opens a react-aria select by its label and picks the option whose text starts with `option`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: new RegExp(`^${option}`) }).click()
}

/** The cells of one agent's row in a statistics table: name, then SPEC §2's five columns. */
const statsRow = (page: Page, table: string, name: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name }).getByRole('cell')

const numbers = async (page: Page, table: string, name: string) =>
  (await statsRow(page, table, name).allTextContents()).slice(1).map(Number)

describe('teams in the browser', () => {
  it('lets a Team Lead create a team, add two agents of the firm, and watch the team summary move live', async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(
      t.db,
      { role: 'Team Lead', brokerFirmLicense: firm, firstName: 'Lee', lastName: 'Lead' },
      'Team',
    )
    const ann = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ann', lastName: 'Adams' })
    const bob = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Bob', lastName: 'Brown' })
    const cal = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Cal', lastName: 'Cole' })
    await makePlannedAgent(t.db, { brokerFirmLicense: newFirm(), firstName: 'Oscar', lastName: 'Outsider' })
    const teamName = `Closers ${randomBytes(2).toString('hex')}`

    // Manage My Teams: no teams yet.
    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=manageMyTeams`)
    await page.getByRole('tab', { name: 'Manage My Teams', selected: true }).waitFor()
    await page.getByText('You have no teams yet.').waitFor()
    await snap(page, '01-manage-my-teams-empty')

    // New Team: name and type are required; the lead is the agent, read-only.
    await page.getByRole('link', { name: 'New Team' }).click()
    await arrive(page, `${t.url}/mystuff/myteams/new`, 'Team Details - New/Edit')
    expect(await page.getByRole('textbox', { name: 'Team Lead' }).inputValue()).toBe('Lee Lead')
    expect(await page.getByRole('textbox', { name: 'Team Lead' }).getAttribute('readonly')).not.toBeNull()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Team name is required').waitFor()
    await page.getByText('Team type is required').waitFor()
    // The co-lead choice holds the firm's other agents, never the lead nor another firm's.
    await page.getByRole('button', { name: /Co-Team Lead/ }).click()
    const coLeads = await page.getByRole('option').allTextContents()
    expect(coLeads.some((o) => o.startsWith('Ann Adams'))).toBe(true)
    expect(coLeads.some((o) => o.startsWith('Lee Lead') || o.startsWith('Oscar'))).toBe(false)
    await page.keyboard.press('Escape')
    await page.getByRole('textbox', { name: 'Team Name' }).fill(teamName)
    await choose(page, 'Team Type', 'Real Estate Team')
    await snap(page, '02-team-form')
    await page.getByRole('button', { name: 'Save' }).click()

    await arrive(page, `${t.url}/mystuff?activeSection=manageMyTeams`, 'My Stuff')
    const teamCard = page.getByRole('article', { name: teamName })
    await teamCard.getByText('Active').waitFor()
    await snap(page, '03-manage-my-teams')

    // Members: add Ann and Bob from the firm.
    await teamCard.getByRole('link', { name: `Manage Members of ${teamName}` }).click()
    await arrive(page, /\/mystuff\/myteams\/\d+\/manageMembers$/, `${teamName} - Real Estate Team`)
    const teamId = Number(new URL(page.url()).pathname.split('/')[3])
    await page.getByText('This team has no members yet.').waitFor()
    for (const name of ['Ann Adams', 'Bob Brown']) {
      await page.getByRole('link', { name: 'Add New Team Member' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers/new`, 'Add Team Member')
      await choose(page, 'Real Estate Agent', name)
      await page.getByRole('button', { name: 'Save' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers`, `${teamName} - Real Estate Team`)
      await page.getByRole('article', { name }).waitFor()
    }
    const bobCard = page.getByRole('article', { name: 'Bob Brown' })
    expect(await bobCard.textContent()).toContain(bob.agent.reAgentEmailId)
    expect(await bobCard.textContent()).toContain(bob.agent.reAgentPhoneNumber)

    // The add form offers only agents not on the team; one added meanwhile is refused with SPEC's text.
    await page.getByRole('link', { name: 'Add New Team Member' }).click()
    await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers/new`, 'Add Team Member')
    await page.getByRole('button', { name: /Real Estate Agent/ }).click()
    expect(await page.getByRole('option').allTextContents()).toEqual([expect.stringMatching(/^Cal Cole/)])
    await page.getByRole('option', { name: /^Cal Cole/ }).click()
    // Cal joins from elsewhere before this page hears of it (its member list is held as it was, as if
    // the live event were late), so Save reaches the server, which refuses the duplicate.
    const before = await t.call('GET', `/reteammgmt/getRETeamMembersByRETeamId/${teamId}`, {
      token: lead.token,
    })
    // Stale until the page sends its add; from then on the page reads the truth again.
    let saved = false
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/api/reteammgmt/addMemberToRETeam')) saved = true
    })
    await page.route('**/api/reteammgmt/getRETeamMembersByRETeamId/**', (route) =>
      saved ? route.continue() : route.fulfill({ json: before.body }),
    )
    const meanwhile = await t.call('POST', '/reteammgmt/addMemberToRETeam', {
      token: lead.token,
      body: { reTeamId: teamId, reAgentId: cal.agent.id },
    })
    expect(meanwhile.status).toBe(201)
    await expect.poll(() => page.getByRole('button', { name: 'Save' }).getAttribute('type')).toBe('submit')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('alert').filter({ hasText: messages.alreadyTeamMember }).waitFor()
    // The refusal refreshes the team: Cal is no longer offered.
    await page.getByText('Every agent of your broker firm with a profile is already on this team.').waitFor()
    await snap(page, '04-add-member-duplicate')
    await page.getByRole('link', { name: 'Cancel' }).click()
    await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers`, `${teamName} - Real Estate Team`)

    // Remove Cal, after SPEC's confirmation.
    await page.getByRole('article', { name: 'Cal Cole' }).waitFor()
    await page.getByRole('button', { name: 'Remove Cal Cole' }).click()
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain(messages.confirmRemoveTeamMember)
    await confirm.getByRole('button', { name: 'Yes, remove' }).click()
    await page.getByRole('article', { name: 'Cal Cole' }).waitFor({ state: 'detached' })
    await snap(page, '05-members')

    // The dashboard: the lead's summary and a row per person of the team.
    await page.goto(`${t.url}/dashboard`)
    await arrive(page, `${t.url}/dashboard`, 'Dashboard')
    const teamTable = `My Team Summary: ${teamName}`
    await page.getByRole('table', { name: teamTable }).waitFor()
    for (const name of ['Lee Lead', 'Ann Adams', 'Bob Brown']) {
      expect(await numbers(page, teamTable, name)).toEqual([0, 0, 0, 0, 0])
    }
    await page.evaluate(() => {
      ;(window as unknown as { stayedOnPage: boolean }).stayedOnPage = true
    })

    // The lead publishes an open house to the team; Ann claims it. The numbers move without a reload.
    const oh = await scheduleOpenHouse(t, lead, { publishLevel: 'Real Estate Team' })
    expect((await publish(t, lead, oh.id, 'Real Estate Team')).status).toBe(200)
    await expect.poll(() => numbers(page, teamTable, 'Lee Lead')).toEqual([1, 0, 0, 0, 0])
    expect(await numbers(page, 'Overall Open House Summary', 'Lee Lead')).toEqual([1, 0, 0, 0, 0])

    const claim = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${ann.agent.id}`, {
      token: ann.token,
    })
    expect(claim.status).toBe(200)
    await expect.poll(() => numbers(page, teamTable, 'Ann Adams')).toEqual([0, 1, 0, 0, 0])
    await page
      .getByText(`${teamName}: Ann Adams, Hosted/Claimed 1.`, { exact: false })
      .waitFor({ state: 'attached' })
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(
      true,
    )
    await snap(page, '06-dashboard-live')

    // The team details modal.
    await page.getByRole('button', { name: `Team details of ${teamName}` }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Peachtree Realty').waitFor()
    expect(await dialog.textContent()).toContain('Lee Lead')
    expect(await dialog.textContent()).toContain('Real Estate Team')
    await snap(page, '07-team-details')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })

    // SPEC §6: a Team Lead has no Search Open Houses.
    await page.goto(`${t.url}/openhouses?activeSection=upcomingOH`)
    await page.getByRole('tab', { name: 'My Upcoming Open Houses', selected: true }).waitFor()
    expect(await page.getByRole('tab', { name: 'Search Open Houses' }).count()).toBe(0)
  })

  it('shows a member its team but neither Manage My Teams nor My Team Summary', async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm }, 'Team')
    const member = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Mia' })
    const team = await t.call('POST', '/reteammgmt/saveRETeam', {
      token: lead.token,
      body: { reTeamName: 'Northside', teamType: 'Partnered Team' },
    })
    await t.call('POST', '/reteammgmt/addMemberToRETeam', {
      token: lead.token,
      body: { reTeamId: team.body.data.id, reAgentId: member.agent.id },
    })

    const page = await signedIn(member)
    await page.goto(`${t.url}/dashboard`)
    await page.getByRole('table', { name: 'Overall Open House Summary' }).waitFor()
    await page.getByRole('button', { name: 'Team details of Northside' }).waitFor()
    expect(await page.getByRole('heading', { name: 'My Team Summary' }).count()).toBe(0)

    await page.goto(`${t.url}/mystuff?activeSection=manageMyTeams`)
    await page.getByRole('tab', { name: 'My Real Estate Profile', selected: true }).waitFor()
    expect(await page.getByRole('tab', { name: 'Manage My Teams' }).count()).toBe(0)
  })

  it('holds New Team back with SPEC’s text once the plan’s teams are used up', async () => {
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: newFirm() }, 'Solo')
    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=manageMyTeams`)
    await page.getByRole('tab', { name: 'Manage My Teams', selected: true }).waitFor()
    const newTeam = page.getByRole('link', { name: 'New Team' })
    expect(await newTeam.getAttribute('aria-disabled')).toBe('true')
    await page.getByRole('status').filter({ hasText: messages.teamLimitReached }).waitFor()
    await snap(page, '08-team-limit')
  })
})
