import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { messages } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, LIVE, tabTo } from '../support/browser.ts'
import { daysFromNow, makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

/**
 * docs/policy.md as a user meets it: who may schedule and publish for whom inside a team, whose leads
 * the guests at the door are and what the listing agent sees of them, and what a firm membership
 * still waiting for approval holds back.
 */

let t: TestApp
/** Set SCREENSHOTS=dir to keep a picture of the screens these journeys pass through. */
const shots = process.env.SCREENSHOTS
/** A journey of three or four browsers on a two-core machine, every screen checked with axe. */
const JOURNEY_MS = 240_000

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn, newPage } = browserHarness(() => t)

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

const newFirm = () => `FIRM-${randomBytes(4).toString('hex')}`
const street = (name: string) => `${Math.floor(Math.random() * 900) + 100} ${name}`

async function snap(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `authority-${name}.png`), fullPage: true })
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

async function arrive(page: Page, url: string | RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page), LIVE).toBe(title)
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })

/** Opens a react-aria select by its label and picks the option whose text starts with `option`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: new RegExp(`^${option}`) }).click()
}

/** The open house card (grid view) for a street address. */
const card = (page: Page, address: string) => page.getByRole('article', { name: address })

async function openSection(page: Page, section: string, tab: string) {
  await page.goto(`${t.url}/openhouses?activeSection=${section}`)
  await page.getByRole('tab', { name: tab, selected: true }).waitFor()
}

/** The newest mail to an address whose subject starts with `subject`, as the mail table keeps it. */
async function mailTo(to: string, subject: string) {
  const mails = await t.db
    .selectFrom('mail')
    .select(['subject', 'textBody'])
    .where('toAddress', '=', to)
    .orderBy('id', 'desc')
    .execute()
  return mails.find((m) => m.subject.startsWith(subject))
}

/** The one link into this app that a mail's text carries. */
function linkIn(text: string): string {
  const links = text.match(new RegExp(`${t.url.replace(/[.]/g, '\\.')}/\\S+`, 'g')) ?? []
  expect(links).toHaveLength(1)
  return links[0] as string
}

/** The cells of one agent's row in a statistics table: its name, then SPEC §2's five numbers. */
const numbers = async (page: Page, table: string, name: string) =>
  (
    await page
      .getByRole('table', { name: table })
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('cell')
      .allTextContents()
  )
    .slice(1)
    .map(Number)

const stayOnPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stayedOnPage: boolean }).stayedOnPage = true
  })
const stayedOnPage = (page: Page) =>
  page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage === true)

describe('who may act for whom, in the browser', () => {
  it('A Team Lead builds a team, schedules for a teammate and publishes to the team; the other teammate claims from the invitation mail while the lead’s dashboard follows live', {
    timeout: JOURNEY_MS,
  }, async () => {
    const firm = newFirm()
    const lead = await makePlannedAgent(
      t.db,
      { role: 'Team Lead', brokerFirmLicense: firm, firstName: 'Lou', lastName: 'Leader' },
      'Team',
    )
    const cleo = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Cleo',
      lastName: 'Carter',
    })
    const drew = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Drew',
      lastName: 'Diaz',
    })
    const teamName = `Porch Crew ${randomBytes(2).toString('hex')}`
    const address = street('Teamwork Terrace')

    // The lead creates its team…
    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=manageMyTeams`)
    await page.getByRole('tab', { name: 'Manage My Teams', selected: true }).waitFor()
    await page.getByRole('link', { name: 'New Team' }).click()
    await arrive(page, `${t.url}/mystuff/myteams/new`, 'Team Details - New/Edit')
    await field(page, 'Team Name').fill(teamName)
    await choose(page, 'Team Type', 'Real Estate Team')
    await expectAccessible(page, 'the team form, filled in', { alsoAtPhoneWidth: true })
    await page.getByRole('button', { name: 'Save' }).click()
    await arrive(page, `${t.url}/mystuff?activeSection=manageMyTeams`, 'My Stuff')
    const teamCard = page.getByRole('article', { name: teamName })
    await teamCard.getByText('Active').waitFor()
    await expectAccessible(page, 'Manage My Teams with the new team')

    // …and invites two verified agents of its firm: invited, not members yet.
    await teamCard.getByRole('link', { name: `Manage Members of ${teamName}` }).click()
    await arrive(page, /\/mystuff\/myteams\/\d+\/manageMembers$/, `${teamName} - Real Estate Team`)
    const teamId = Number(new URL(page.url()).pathname.split('/')[3])
    for (const name of ['Cleo Carter', 'Drew Diaz']) {
      await page.getByRole('link', { name: 'Add New Team Member' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers/new`, 'Add Team Member')
      await choose(page, 'Real Estate Agent', name)
      await expectAccessible(page, 'Add Team Member, an agent chosen')
      await page.getByRole('button', { name: 'Save' }).click()
      await arrive(page, `${t.url}/mystuff/myteams/${teamId}/manageMembers`, `${teamName} - Real Estate Team`)
      await page.getByRole('article', { name }).getByText('Invited', { exact: true }).waitFor()
    }
    await snap(page, '1-01-invited')
    await expectAccessible(page, 'the team members page with two Invited cards', { alsoAtPhoneWidth: true })

    // Cleo accepts on her dashboard.
    const cleoPage = await signedIn(cleo)
    await cleoPage.goto(`${t.url}/dashboard`)
    await arrive(cleoPage, `${t.url}/dashboard`, 'Dashboard')
    await cleoPage.getByRole('heading', { name: 'Team invitations' }).waitFor()
    await expectAccessible(cleoPage, 'the dashboard with a team invitation', { alsoAtPhoneWidth: true })
    // From the keyboard alone: Tab reaches Accept, and Decline beside it; back to Accept, Enter.
    await tabTo(cleoPage, cleoPage.getByRole('button', { name: `Accept the invitation to ${teamName}` }))
    await tabTo(cleoPage, cleoPage.getByRole('button', { name: `Decline the invitation to ${teamName}` }), 1)
    await cleoPage.keyboard.press('Shift+Tab')
    await cleoPage.keyboard.press('Enter')
    await cleoPage
      .getByRole('status')
      .filter({ hasText: `You joined ${teamName}.` })
      .waitFor()
    await cleoPage.getByRole('button', { name: `Team details of ${teamName}` }).waitFor()
    await expectAccessible(cleoPage, 'the dashboard after joining the team')
    await cleoPage.context().close()

    // Drew accepts from the link in his invitation mail.
    const invitationMail = await mailTo(drew.agent.reAgentEmailId, `Lou Leader invites you to ${teamName}`)
    expect(invitationMail).toBeDefined()
    const invitationLink = linkIn(invitationMail?.textBody ?? '')
    expect(invitationLink).toBe(`${t.url}/dashboard?invitation=${teamId}`)
    const drewPage = await signedIn(drew)
    await drewPage.goto(invitationLink)
    const invitation = drewPage.getByRole('listitem', { name: `Invitation to ${teamName}` })
    await invitation.getByText('From your invitation email').waitFor()
    await expectAccessible(drewPage, 'the dashboard opened from the invitation mail')
    await invitation.getByRole('button', { name: `Accept the invitation to ${teamName}` }).click()
    await drewPage
      .getByRole('status')
      .filter({ hasText: `You joined ${teamName}.` })
      .waitFor()

    // The lead's dashboard, in a second window, follows everything from here on without a reload.
    const board = await signedIn(lead)
    await board.goto(`${t.url}/dashboard`)
    await arrive(board, `${t.url}/dashboard`, 'Dashboard')
    const teamTable = `My Team Summary: ${teamName}`
    await board.getByRole('table', { name: teamTable }).waitFor()
    for (const name of ['Lou Leader', 'Cleo Carter', 'Drew Diaz']) {
      expect(await numbers(board, teamTable, name)).toEqual([0, 0, 0, 0, 0])
    }
    await stayOnPage(board)

    // The lead types the house in through the schedule flow and schedules it for Cleo.
    await openSection(page, 'upcomingOH', 'My Upcoming Open Houses')
    await page.getByRole('link', { name: 'Schedule Open House' }).click()
    await arrive(page, `${t.url}/openhouses/property`, 'Add Property')
    await page.getByText('pick the agent you schedule its open house for').waitFor()
    await expectAccessible(page, 'Add Property for a Team Lead', { alsoAtPhoneWidth: true })
    await field(page, 'Address Line 1').fill(address)
    await field(page, 'City').fill('Roswell')
    await choose(page, 'Select a state', 'Georgia')
    await field(page, 'County').fill('Fulton')
    await field(page, 'Zip Code').fill('30075')
    await choose(page, 'Property Type', 'Single Family Home')
    await page.getByRole('button', { name: 'Next' }).click()
    await arrive(page, /\/openhouses\/schedule\?rePropertyId=\d+$/, 'Schedule Open House')
    // Both accepted teammates are offered, never the lead itself.
    await page.getByRole('button', { name: 'Listing Agent' }).click()
    await page.getByRole('option', { name: 'Cleo Carter' }).waitFor()
    expect((await page.getByRole('option').allTextContents()).sort()).toEqual(['Cleo Carter', 'Drew Diaz'])
    await expectAccessible(page, 'the schedule form with the listing-agent picker open')
    await page.getByRole('option', { name: 'Cleo Carter' }).click()
    await page.getByText("The property joins Cleo Carter's inventory when you save.").waitFor()
    await choose(page, 'Open House For', 'Sale')
    const [year, month, day] = daysFromNow(4).split('-')
    await page.getByRole('spinbutton', { name: /month/i }).first().click()
    await page.keyboard.type(`${month}${day}${year}`)
    await choose(page, 'Start Time', '10:00 AM')
    await choose(page, 'End Time', '12:00 PM')
    await choose(page, 'Publish Level', 'Real Estate Team')
    await snap(page, '1-02-schedule-for-cleo')
    await expectAccessible(page, 'the schedule form for a teammate', { alsoAtPhoneWidth: true })
    await page.getByRole('button', { name: 'Save' }).click()

    // The confirmation offers to publish to the team now: the lead does.
    await arrive(page, /\/openhouses\/schedule\/\d+\/confirm\?/, 'Open House Scheduled')
    const openHouseId = Number(new URL(page.url()).pathname.split('/')[3])
    await page.getByRole('heading', { name: 'Publish it now to Real Estate Team?' }).waitFor()
    await page.getByText('Published for Cleo Carter, the listing agent.', { exact: false }).waitFor()
    await expectAccessible(page, 'the publish confirmation', { alsoAtPhoneWidth: true })
    await page.getByRole('button', { name: 'Publish Now' }).click()
    await arrive(page, `${t.url}/openhouses?activeSection=upcomingOH`, 'Open Houses')
    await page.getByRole('status').filter({ hasText: 'Open house published to Real Estate Team.' }).waitFor()
    const leadCard = card(page, address)
    await leadCard.getByText('Scheduled for Cleo Carter').waitFor()
    await leadCard.getByText('Not Hosted').waitFor()
    await snap(page, '1-03-lead-upcoming')
    await expectAccessible(page, 'the upcoming list with Scheduled for …', { alsoAtPhoneWidth: true })

    // Cleo's row counts her new listing on the lead's dashboard, live.
    await expect.poll(() => numbers(board, teamTable, 'Cleo Carter'), LIVE).toEqual([1, 0, 0, 0, 0])

    // The team is mailed the claim link: Drew, not the listing agent nor the lead who published it.
    const offerMail = await mailTo(drew.agent.reAgentEmailId, 'Open house to host:')
    expect(offerMail?.subject).toContain(address)
    const claimLink = linkIn(offerMail?.textBody ?? '')
    expect(claimLink).toBe(`${t.url}/openhouses?activeSection=searchOH&openHouseId=${openHouseId}`)
    expect(await mailTo(cleo.agent.reAgentEmailId, 'Open house to host:')).toBeUndefined()
    expect(await mailTo(lead.agent.reAgentEmailId, 'Open house to host:')).toBeUndefined()

    // Drew follows it: the claim opens at once.
    await drewPage.goto(claimLink)
    const claim = drewPage.getByRole('alertdialog')
    await claim.getByRole('heading', { name: 'Claim this open house?' }).waitFor()
    expect(await claim.textContent()).toContain(address)
    await snap(drewPage, '1-04-claim-from-mail')
    await expectAccessible(drewPage, 'the claim opened from the mail', { alsoAtPhoneWidth: true })
    await claim.getByRole('button', { name: 'Yes, claim it' }).click()
    await drewPage.getByText(messages.openHouseClaimed).waitFor()

    // The lead's dashboard moves without a reload: Drew has hosted/claimed one.
    await expect.poll(() => numbers(board, teamTable, 'Drew Diaz'), LIVE).toEqual([0, 1, 0, 0, 0])
    await board.getByText(`${teamName}: Drew Diaz, Hosted/Claimed 1.`, { exact: false }).waitFor({
      state: 'attached',
    })
    expect(await numbers(board, teamTable, 'Cleo Carter')).toEqual([1, 0, 0, 0, 0])
    expect(await stayedOnPage(board)).toBe(true)
    await snap(board, '1-05-dashboard-live')
    await expectAccessible(board, "the lead's dashboard, moved live", { alsoAtPhoneWidth: true })

    // And the lead's own list says who hosts it now.
    await leadCard.getByText('Hosted', { exact: true }).waitFor()
    expect(await leadCard.textContent()).toContain('Drew Diaz')
  })

  it('The host’s board shows guests in full and they are the host’s leads; the listing agent sees only those who consented', {
    timeout: JOURNEY_MS,
  }, async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lisa', lastName: 'Listwell' })
    const host = await makePlannedAgent(t.db, { firstName: 'Hank', lastName: 'Doorman' })
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id, 'Open To All')).status).toBe(200)
    const claimed = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect(claimed.status).toBe(200)
    const tag = randomBytes(3).toString('hex')
    const sharing = {
      first: 'Sadie',
      last: 'Sharer',
      email: `sadie.sharer.${tag}@example.com`,
      phone: '404 555 0131',
    }
    const keeping = {
      first: 'Kurt',
      last: 'Keeper',
      email: `kurt.keeper.${tag}@example.com`,
      phone: '404 555 0186',
    }

    // The host's live board, empty before the door opens.
    const manageUrl = `${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`
    const board = await signedIn(host)
    await board.goto(manageUrl)
    await expect.poll(() => heading(board), LIVE).toBe('Manage Attendees')
    await board
      .getByTestId('live-status')
      .filter({ hasText: /^Live$/ })
      .waitFor()
    expect(await board.getByTestId('attendee-count').textContent()).toBe('0')

    // Two guests sign in on their phones from the QR code at the door (the host's).
    const qr = `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`
    for (const guest of [sharing, keeping]) {
      const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
      await phone.goto(qr)
      await arrive(phone, /\/public\/OpenHouseToday\?/, 'Welcome to our Open House')
      await phone.getByText('Please sign in so Hank Doorman can share details about this home').waitFor()
      await phone.getByRole('link', { name: 'Sign In' }).first().click()
      await arrive(phone, /\/public\/OpenHouseToday\/new\?/, 'Sign In')
      await field(phone, 'First Name').fill(guest.first)
      await field(phone, 'Last Name').fill(guest.last)
      await field(phone, 'Email').fill(guest.email)
      await field(phone, 'Phone').fill(guest.phone)
      const share = phone.getByRole('checkbox', {
        name: 'Also share my name, email and phone with the listing agent, Lisa Listwell, who may contact me about this home.',
      })
      expect(await share.isChecked()).toBe(false)
      if (guest === sharing) {
        await share.check()
        await expectAccessible(phone, 'the guest sign-in page with the listing-agent box, on a phone')
      }
      await snap(phone, `2-01-sign-in-${guest.first.toLowerCase()}`)
      await phone.getByRole('button', { name: 'Sign In' }).click()
      await arrive(
        phone,
        /\/public\/OpenHouseToday\/new\/confirm\?.*prospectId=\d+/,
        'Thank you for signing in!',
      )
      // The guest shows on the host's board at once.
      await board.getByRole('row', { name: new RegExp(`${guest.first} ${guest.last}`) }).waitFor()
      await phone.context().close()
    }

    // The host sees both in full: they are its leads.
    expect(await board.getByTestId('attendee-count').textContent()).toBe('2')
    for (const guest of [sharing, keeping]) {
      const row = board.getByRole('row', { name: new RegExp(`${guest.first} ${guest.last}`) })
      const text = await row.textContent()
      expect(text).toContain(guest.email)
      expect(text).toContain(guest.phone)
      expect(text).toContain('Your lead')
      expect(text).not.toContain('*')
    }
    await snap(board, '2-02-host-board')
    await expectAccessible(board, "the host's attendee board", { alsoAtPhoneWidth: true })

    // …and in its Prospects.
    await board.goto(`${t.url}/prospects`)
    await arrive(board, `${t.url}/prospects`, 'Prospects')
    for (const guest of [sharing, keeping]) {
      const prospect = board.getByRole('article', { name: `${guest.first} ${guest.last}` })
      await prospect.waitFor()
      expect(await prospect.textContent()).toContain(guest.email)
      expect(await prospect.textContent()).toContain(guest.phone)
    }
    await snap(board, '2-03-host-prospects')
    await expectAccessible(board, "the host's prospects", { alsoAtPhoneWidth: true })

    // The listing agent's view of the attendees: Sadie, who consented, in full; Kurt masked.
    const lister = await signedIn(listing)
    await lister.goto(manageUrl)
    await expect.poll(() => heading(lister), LIVE).toBe('Attendees')
    const sadie = lister.getByRole('row', { name: /Sadie Sharer/ })
    await sadie.waitFor()
    const sadieText = await sadie.textContent()
    expect(sadieText).toContain(sharing.email)
    expect(sadieText).toContain(sharing.phone)
    expect(sadieText).toContain('Shared with the listing agent')
    const kurtText = (await lister.getByRole('row', { name: /Kurt Keeper/ }).textContent()) ?? ''
    expect(kurtText).toContain('Contact masked')
    expect(kurtText).toContain("Hank Doorman's lead")
    expect(kurtText).toMatch(/k\*+\w@exa\*+\.com/)
    expect(kurtText).toMatch(/\*{3} \*{3} 0186/)
    expect(await lister.getByText(keeping.email).count()).toBe(0)
    expect(await lister.getByText(keeping.phone).count()).toBe(0)
    expect(await lister.getByRole('link', { name: 'Add Attendee' }).count()).toBe(0)
    await snap(lister, '2-04-listing-agent-attendees')
    await expectAccessible(lister, "the listing agent's attendees, one masked", { alsoAtPhoneWidth: true })

    // Neither guest is the listing agent's lead.
    await lister.goto(`${t.url}/prospects`)
    await arrive(lister, `${t.url}/prospects`, 'Prospects')
    await lister.getByText('You have no prospects yet.', { exact: false }).waitFor()
    await expectAccessible(lister, 'no prospects yet')
  })

  it('A newcomer with a firm license sees no Market Center offers and no roster until a verified Team Lead approves it in the app', {
    timeout: JOURNEY_MS,
  }, async () => {
    const firm = newFirm()
    const colleague = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Marta',
      lastName: 'Market',
    })
    const lead = await makePlannedAgent(t.db, {
      role: 'Team Lead',
      brokerFirmLicense: firm,
      firstName: 'Tori',
      lastName: 'Approver',
    })
    const newcomer = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Nico',
      lastName: 'Newcomer',
      firmStatus: 'pending',
    })
    // Beside the firm's Market Center offer, one Open To All from another firm: the list itself works.
    const stranger = await makePlannedAgent(t.db, { brokerFirmLicense: newFirm(), firstName: 'Otto' })
    const market = await scheduleOpenHouse(t, colleague, { publishLevel: 'Market Center' })
    expect((await publish(t, colleague, market.id, 'Market Center')).status).toBe(200)
    const open = await scheduleOpenHouse(t, stranger)
    expect((await publish(t, stranger, open.id, 'Open To All')).status).toBe(200)
    const addressOf = async (agent: Agent, id: number) =>
      (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${id}`, { token: agent.token })).body.data
        .reProperty.propertyAddress1 as string
    const marketAddress = await addressOf(colleague, market.id)
    const openAddress = await addressOf(stranger, open.id)
    const roster = () =>
      t.call('GET', `/reagentmgmt/getREAgentsByBrokerFirmLicense/${encodeURIComponent(firm)}`, {
        token: newcomer.token,
      })

    // The newcomer's profile says it waits, and what that holds back; there is no firm roster for it.
    const page = await signedIn(newcomer)
    await page.goto(`${t.url}/mystuff`)
    await page.getByRole('tab', { name: 'My Real Estate Profile', selected: true }).waitFor()
    await page.getByText('Firm membership: Pending').waitFor()
    await page
      .getByText("Until then you don't see your firm's agents or Market Center offers", { exact: false })
      .waitFor()
    expect(await page.getByRole('tab', { name: /Firm Members/ }).count()).toBe(0)
    expect((await roster()).status).toBe(403)
    await snap(page, '3-01-profile-pending')
    await expectAccessible(page, 'the profile with Firm membership: Pending', { alsoAtPhoneWidth: true })

    // Search Open Houses: the Open To All offer, not the firm's Market Center one.
    await openSection(page, 'searchOH', 'Search Open Houses')
    await card(page, openAddress).waitFor()
    expect(await card(page, marketAddress).count()).toBe(0)
    await snap(page, '3-02-search-pending')
    await expectAccessible(page, 'Search Open Houses while the firm membership is pending', {
      alsoAtPhoneWidth: true,
    })

    // A verified Team Lead of the firm approves the newcomer on its Firm Members tab.
    const leadPage = await signedIn(lead)
    await leadPage.goto(`${t.url}/mystuff?activeSection=firmMembers`)
    await leadPage.getByRole('tab', { name: /^Firm Members/, selected: true }).waitFor()
    const waiting = leadPage.getByRole('list', { name: 'Waiting for approval' })
    await waiting.getByText('Nico Newcomer').waitFor()
    expect(await leadPage.getByRole('list', { name: 'Verified members' }).textContent()).toContain(
      'Marta Market',
    )
    await snap(leadPage, '3-03-firm-members')
    await expectAccessible(leadPage, 'the Firm Members tab with a request waiting', {
      alsoAtPhoneWidth: true,
    })
    // From the keyboard alone: Tab reaches Approve, and Decline beside it; back to Approve, Enter.
    await tabTo(leadPage, leadPage.getByRole('button', { name: 'Approve Nico Newcomer' }))
    await tabTo(leadPage, leadPage.getByRole('button', { name: 'Decline Nico Newcomer' }), 1)
    await leadPage.keyboard.press('Shift+Tab')
    await leadPage.keyboard.press('Enter')
    await leadPage.getByRole('status').filter({ hasText: 'Nico Newcomer is now a verified member' }).waitFor()
    await leadPage.getByRole('list', { name: 'Verified members' }).getByText('Nico Newcomer').waitFor()
    await leadPage.getByText('No one is waiting for approval.').waitFor()
    const news = await mailTo(newcomer.agent.reAgentEmailId, 'You are a verified member of Peachtree Realty')
    expect(news?.textBody).toContain('Tori Approver verified your membership')

    // The newcomer reloads: the Market Center offer is there to claim, and the roster answers.
    await page.reload()
    await page.getByRole('tab', { name: 'Search Open Houses', selected: true }).waitFor()
    await card(page, marketAddress)
      .getByRole('button', { name: `Claim ${marketAddress}` })
      .waitFor()
    await card(page, openAddress).waitFor()
    await snap(page, '3-04-search-verified')
    await expectAccessible(page, 'Search Open Houses once verified', { alsoAtPhoneWidth: true })
    const now = await roster()
    expect(now.status).toBe(200)
    expect(now.body.data.map((m: { reAgentFirstName: string }) => m.reAgentFirstName).sort()).toEqual([
      'Marta',
      'Tori',
    ])

    // Its profile says so.
    await page.goto(`${t.url}/mystuff`)
    await page.getByText('Firm membership: Verified').waitFor()
    expect(await page.getByText('Firm membership: Pending').count()).toBe(0)
    await expectAccessible(page, 'the profile with Firm membership: Verified')
  })
})
