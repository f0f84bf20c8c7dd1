import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { messages } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, LIVE } from '../support/browser.ts'
import { acceptTeam, makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
/** Every screen the tests pass through is checked with axe; set SCREENSHOTS=dir to keep a picture too. */
const shots = process.env.SCREENSHOTS

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const newFirm = () => `FIRM-${randomBytes(4).toString('hex')}`

const { signedIn } = browserHarness(() => t)

async function snap(page: Page, name: string, options: { alsoAtPhoneWidth?: boolean } = {}) {
  await expectAccessible(page, name, options)
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
  it('lets a Team Lead create a team, invite two agents of the firm, and watch the team summary move live', async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(
      t.db,
      { role: 'Team Lead', brokerFirmLicense: firm, firstName: 'Lee', lastName: 'Lead' },
      'Team',
    )
    const ann = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ann', lastName: 'Adams' })
    const bob = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Bob', lastName: 'Brown' })
    const cal = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Cal', lastName: 'Cole' })
    // Waiting for the firm's approval: neither co-lead nor member material yet.
    await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Pat',
      lastName: 'Pending',
      firmStatus: 'pending',
    })
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
    // The co-lead choice holds the firm's other verified agents, never the lead, another firm's or a
    // pending one.
    await page.getByRole('button', { name: /Co-Team Lead/ }).click()
    const coLeads = await page.getByRole('option').allTextContents()
    expect(coLeads.some((o) => o.startsWith('Ann Adams'))).toBe(true)
    expect(coLeads.some((o) => /^(Lee Lead|Oscar|Pat Pending)/.test(o))).toBe(false)
    await page.keyboard.press('Escape')
    await page.getByRole('textbox', { name: 'Team Name' }).fill(teamName)
    await choose(page, 'Team Type', 'Real Estate Team')
    await snap(page, '02-team-form')
    await page.getByRole('button', { name: 'Save' }).click()

    await arrive(page, `${t.url}/mystuff?activeSection=manageMyTeams`, 'My Stuff')
    const teamCard = page.getByRole('article', { name: teamName })
    await teamCard.getByText('Active').waitFor()
    await snap(page, '03-manage-my-teams', { alsoAtPhoneWidth: true })

    // Members: invite Ann and Bob from the firm; their cards read "Invited", without contact data.
    await teamCard.getByRole('link', { name: `Manage Members of ${teamName}` }).click()
    await arrive(page, /\/mystuff\/myteams\/\d+\/manageMembers$/, `${teamName} - Real Estate Team`)
    const teamId = Number(new URL(page.url()).pathname.split('/')[3])
    await page.getByText('This team has no members yet.').waitFor()
    await expectAccessible(page, 'the members of a new team')
    for (const name of ['Ann Adams', 'Bob Brown']) {
      await page.getByRole('link', { name: 'Add New Team Member' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers/new`, 'Add Team Member')
      if (name === 'Ann Adams') {
        // Only verified agents of the firm are offered.
        await page.getByRole('button', { name: /Real Estate Agent/ }).click()
        const offered = await page.getByRole('option').allTextContents()
        expect(offered.some((o) => o.startsWith('Pat Pending'))).toBe(false)
        await expectAccessible(page, 'Add Team Member, its agent list open')
        await page.keyboard.press('Escape')
      }
      await choose(page, 'Real Estate Agent', name)
      await page.getByRole('button', { name: 'Save' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers`, `${teamName} - Real Estate Team`)
      await page
        .getByRole('status')
        .filter({ hasText: `${name} was invited to the team and will join once they accept` })
        .waitFor()
      await page.getByRole('article', { name }).getByText('Invited', { exact: true }).waitFor()
    }
    const bobCard = page.getByRole('article', { name: 'Bob Brown' })
    expect(await bobCard.textContent()).not.toContain(bob.agent.reAgentEmailId)
    await snap(page, '04a-members-invited')

    // Ann accepts from her invitation mail's link; Bob through the API. The lead then sees their contact.
    await acceptTeam(t, bob, teamId)
    const annPage = await signedIn(ann)
    await annPage.goto(`${t.url}/dashboard?invitation=${teamId}`)
    const invitation = annPage.getByRole('listitem', { name: `Invitation to ${teamName}` })
    await invitation.getByText('From your invitation email').waitFor()
    await expect.poll(() => invitation.evaluate((el) => el === document.activeElement)).toBe(true)
    await snap(annPage, '04b-dashboard-invitation')
    await invitation.getByRole('button', { name: `Accept the invitation to ${teamName}` }).click()
    await annPage
      .getByRole('status')
      .filter({ hasText: `You joined ${teamName}.` })
      .waitFor()
    await annPage.getByRole('button', { name: `Team details of ${teamName}` }).waitFor()
    await invitation.waitFor({ state: 'detached' })
    await annPage.waitForURL(`${t.url}/dashboard`)
    await annPage.close()

    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => bobCard.textContent()).toContain(bob.agent.reAgentEmailId)
    expect(await bobCard.textContent()).toContain(bob.agent.reAgentPhoneNumber)
    // Bob's card may show his details before the refetch (he accepted earlier): Ann's come with it.
    await expect
      .poll(() => page.getByRole('article', { name: 'Ann Adams' }).textContent())
      .toContain(ann.agent.reAgentEmailId)

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
    await page
      .getByText('Every verified agent of your broker firm is already on this team or invited.')
      .waitFor()
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
    await snap(page, '05-members', { alsoAtPhoneWidth: true })

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
    await expect.poll(() => numbers(page, teamTable, 'Lee Lead'), LIVE).toEqual([1, 0, 0, 0, 0])
    expect(await numbers(page, 'Overall Open House Summary', 'Lee Lead')).toEqual([1, 0, 0, 0, 0])

    const claim = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${ann.agent.id}`, {
      token: ann.token,
    })
    expect(claim.status).toBe(200)
    await expect.poll(() => numbers(page, teamTable, 'Ann Adams'), LIVE).toEqual([0, 1, 0, 0, 0])
    await page
      .getByText(`${teamName}: Ann Adams, Hosted/Claimed 1.`, { exact: false })
      .waitFor({ state: 'attached' })
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(
      true,
    )
    await snap(page, '06-dashboard-live', { alsoAtPhoneWidth: true })

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
    await expectAccessible(page, "a Team Lead's upcoming open houses", { alsoAtPhoneWidth: true })
    // A journey of two browsers (the lead's and an invited agent's), each screen checked with axe:
    // longer than the default 30 s.
  }, 120_000)

  it('lets an invited agent accept or decline on the dashboard, and shows a member neither Manage My Teams nor My Team Summary', async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm }, 'Team')
    const member = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Mia' })
    const invite = async (reTeamName: string, teamType: string) => {
      const team = await t.call('POST', '/reteammgmt/saveRETeam', {
        token: lead.token,
        body: { reTeamName, teamType },
      })
      const added = await t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: team.body.data.id, reAgentId: member.agent.id },
      })
      expect(added.body.data.invitationStatus).toBe('invited')
      return team.body.data.id as number
    }
    const northside = await invite('Northside', 'Partnered Team')
    await invite('Southside', 'Real Estate Group')

    // On a phone, from the mail's link: the invitation is in view and marked.
    const page = await signedIn(member, { viewport: { width: 390, height: 844 } })
    await page.goto(`${t.url}/dashboard?invitation=${northside}`)
    await page.getByRole('table', { name: 'Overall Open House Summary' }).waitFor()
    const north = page.getByRole('listitem', { name: 'Invitation to Northside' })
    await north.getByText('From your invitation email').waitFor()
    expect(await north.getByText('Invited', { exact: true }).count()).toBe(1)
    await page.getByText('You are not part of a team yet. Accept an invitation above to join one.').waitFor()
    await snap(page, '09-invitations-390')

    // Decline Southside, after a confirmation.
    await page.getByRole('button', { name: 'Decline the invitation to Southside' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByRole('button', { name: 'Yes, decline' }).click()
    await page.getByRole('status').filter({ hasText: 'You declined the invitation to Southside.' }).waitFor()
    await page.getByRole('listitem', { name: 'Invitation to Southside' }).waitFor({ state: 'detached' })

    // Accept Northside: it becomes one of her teams.
    await north.getByRole('button', { name: 'Accept the invitation to Northside' }).click()
    await page.getByRole('button', { name: 'Team details of Northside' }).waitFor()
    await page.getByText('Partnered Team · Member').waitFor()
    expect(await page.getByRole('heading', { name: 'Team invitations' }).count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'My Team Summary' }).count()).toBe(0)
    await snap(page, '10-invitation-accepted-390')

    // The link again, once answered: said plainly.
    await page.goto(`${t.url}/dashboard?invitation=${northside}`)
    await page.getByRole('status').filter({ hasText: 'You are already a member of Northside.' }).waitFor()
    await expectAccessible(page, 'the dashboard told the invitation is answered')

    await page.goto(`${t.url}/mystuff?activeSection=manageMyTeams`)
    await page.getByRole('tab', { name: 'My Real Estate Profile', selected: true }).waitFor()
    expect(await page.getByRole('tab', { name: 'Manage My Teams' }).count()).toBe(0)
    expect(await page.getByRole('tab', { name: /Firm Members/ }).count()).toBe(0)
    await expectAccessible(page, "a member's My Stuff")
  })

  it('lets a verified Team Lead approve and decline who joins the firm; the newcomer sees where it stands', async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(t.db, {
      role: 'Team Lead',
      brokerFirmLicense: firm,
      firstName: 'Lee',
      lastName: 'Lead',
    })
    await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Vera', lastName: 'Verified' })
    const pat = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Pat',
      lastName: 'Pending',
      firmStatus: 'pending',
    })
    await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Dan',
      lastName: 'Doubt',
      firmStatus: 'pending',
    })

    // The newcomer's profile says it waits, and for whom.
    const patPage = await signedIn(pat, { viewport: { width: 390, height: 844 } })
    await patPage.goto(`${t.url}/mystuff`)
    await patPage
      .getByText('A verified Team Lead or Admin Team Member of Peachtree Realty can approve it', {
        exact: false,
      })
      .waitFor()
    expect(await patPage.getByText('Firm membership: Pending').count()).toBe(1)
    await snap(patPage, '13-profile-pending-390')

    // The lead's Firm Members tab: two requests, then the verified members.
    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=firmMembers`)
    await page.getByRole('tab', { name: /^Firm Members/, selected: true }).waitFor()
    const waiting = page.getByRole('list', { name: 'Waiting for approval' })
    await waiting.getByText('Pat Pending').waitFor()
    expect(await waiting.getByRole('listitem').count()).toBe(2)
    expect(await page.getByRole('list', { name: 'Verified members' }).textContent()).toContain(
      'Vera Verified',
    )
    await snap(page, '11-firm-members', { alsoAtPhoneWidth: true })

    await page.getByRole('button', { name: 'Approve Pat Pending' }).click()
    await page.getByRole('status').filter({ hasText: 'Pat Pending is now a verified member' }).waitFor()
    await page.getByRole('list', { name: 'Verified members' }).getByText('Pat Pending').waitFor()

    // Declining asks first.
    await page.getByRole('button', { name: 'Decline Dan Doubt' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, decline' }).click()
    await page.getByRole('status').filter({ hasText: "You declined Dan Doubt's request." }).waitFor()
    await page.getByText('No one is waiting for approval').waitFor()
    await page.getByRole('list', { name: 'Declined' }).getByText('Dan Doubt').waitFor()
    await snap(page, '12-firm-members-decided')

    // Pat's profile now reads verified.
    await patPage.reload()
    await patPage.getByText('Firm membership: Verified').waitFor()
    await expectAccessible(patPage, 'the profile, verified')
  }, 60_000)

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
