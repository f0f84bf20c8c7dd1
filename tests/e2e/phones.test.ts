import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MY_STUFF_SECTIONS } from '../../web/src/features/mystuff/sections.ts'
import { OPEN_HOUSE_SECTIONS } from '../../web/src/features/open-houses/sections.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { hostedGuest, scheduleOpenHouse } from '../support/open-houses.ts'

// Agents run their open houses from a phone. Every agent screen, at the widths of the phones in their
// hands (360, 390, 414 px), must fit the screen (no sideways scroll) and pass axe; the screens are not a
// hand list but every route of TanStack Router's generated tree under the signed-in layout, so a route
// added tomorrow is walked too.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const browser = browserHarness(() => t)
const WIDTHS = [360, 390, 414]
const NARROWEST = 360
const DESKTOP = { width: 1280, height: 800 }
const PHONE_HEIGHT = 740

/** Every route behind the signed-in layout (`/_agent`), read from the router's generated tree. */
function agentRoutes(): string[] {
  const tree = fs.readFileSync(new URL('../../web/src/routeTree.gen.ts', import.meta.url), 'utf8')
  const routes = new Set<string>()
  for (const m of tree.matchAll(/id: '(\/_agent[^']*)'\s+path: '[^']*'\s+fullPath: '([^']*)'/g)) {
    const [, id = '', fullPath = ''] = m
    // Pathless layouts (/_agent, /_agent/_licensed) have no screen of their own.
    if (id.split('/').at(-1)?.startsWith('_')) continue
    routes.add(fullPath.length > 1 ? fullPath.replace(/\/$/, '') : fullPath)
  }
  return [...routes]
}

/**
 * How far the page scrolls sideways and, when it does, the outermost elements that stick out past the
 * right edge (their parent fits): where the fix goes.
 */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth
    const scrolling = document.scrollingElement ?? document.documentElement
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5
    const name = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : ''
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`
    }
    const wider: string[] = []
    if (scrolling.scrollWidth > width) {
      for (const el of document.body.querySelectorAll('*')) {
        const parent = el.parentElement
        if (!parent || !sticksOut(el) || sticksOut(parent)) continue
        const box = el.getBoundingClientRect()
        if (box.width === 0) continue
        wider.push(`${name(el)} in ${name(parent)} ${Math.round(box.right)}px`)
      }
    }
    return { scrollWidth: scrolling.scrollWidth, width, wider: wider.slice(0, 6) }
  })
}

/** Selected tabs that are scrolled out of their strip (fully or in part). */
async function hiddenTabs(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="tablist"]')].flatMap((list) => {
      const tab = list.querySelector('[role="tab"][aria-selected="true"]')
      if (!tab) return []
      const strip = list.getBoundingClientRect()
      const box = tab.getBoundingClientRect()
      const inView = box.left >= strip.left - 0.5 && box.right <= strip.right + 0.5
      return inView ? [] : [`${tab.textContent} (${Math.round(box.left)}–${Math.round(box.right)} px)`]
    }),
  )
}

/** The route's screen is up: its heading shows and nothing is still loading. */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await expect.poll(() => page.locator('.spinner').count(), { timeout: 15_000 }).toBe(0)
}

describe('agent screens on a phone', () => {
  it('fits every agent route at 360, 390 and 414 px and at 1280 px with no serious axe violation, and its first Tab reaches it', async () => {
    const lead = await makePlannedAgent(
      t.db,
      {
        role: 'Team Lead',
        brokerFirmLicense: `FIRM-${randomBytes(4).toString('hex')}`,
        // A long name and firm, as real ones are: they must wrap, not push the screen wider.
        firstName: 'Maximiliana',
        lastName: 'Worthington-Castellanos',
      },
      'Team',
    )
    const member = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-PHONES', firstName: 'Mo' })
    const teamId = await makeTeam(t.db, lead, [member])
    const oh = await scheduleOpenHouse(t, lead)
    const inventory = await t.db
      .selectFrom('reInventory')
      .select('id')
      .where('rePropertyId', '=', oh.rePropertyId)
      .executeTakeFirstOrThrow()
    // A guest who signed in at an open house the lead hosted for its teammate: the lead's prospect.
    const { prospectId } = await hostedGuest(t, member, lead)

    const params: Record<string, number> = {
      $reAgentId: lead.agent.id,
      $reTeamId: teamId,
      $openHouseId: oh.id,
      $reInventoryId: inventory.id,
      $prospectId: prospectId,
    }
    // Routes whose screen needs a search parameter (validateSearch with a required field or an
    // open house to work for) get it; the rest open bare.
    const search: Record<string, string> = {
      '/openhouses/schedule': `?rePropertyId=${oh.rePropertyId}&fromPage=REInventoryView&reInventoryId=${inventory.id}`,
      '/prospects/search': `?openHouseId=${oh.id}`,
    }
    const routes = agentRoutes()
    // The walk reads the tree, not a list: it has found the screens the issue names.
    expect(routes).toEqual(expect.arrayContaining(['/dashboard', '/reinventory', '/mystuff/$reAgentId/edit']))
    const urls = routes.flatMap((route) => {
      const url = route.replace(/\$\w+/g, (p) => {
        if (!(p in params)) throw new Error(`no record for ${p} in ${route}`)
        return String(params[p])
      })
      if (route in search) return [`${url}${search[route]}`]
      // The tabbed screens: each tab is a screen of its own.
      if (route === '/openhouses') return OPEN_HOUSE_SECTIONS.map((s) => `${url}?activeSection=${s}`)
      if (route === '/mystuff') return MY_STUFF_SECTIONS.map((s) => `${url}?activeSection=${s}`)
      return [url]
    })

    const page = await browser.signedIn(lead, { viewport: { width: NARROWEST, height: PHONE_HEIGHT } })
    const wide: string[] = []
    const hidden: string[] = []
    const unreachable: string[] = []
    // ROUTES=regex walks only the matching screens (while fixing one).
    const only = process.env.ROUTES ? new RegExp(process.env.ROUTES) : undefined
    for (const url of urls.filter((u) => !only || only.test(u))) {
      await page.setViewportSize({ width: NARROWEST, height: PHONE_HEIGHT })
      await page.goto(`${t.url}${url}`)
      try {
        await settled(page)
      } catch (error) {
        throw new Error(`${url} (at ${page.url()}) did not show its screen: ${error}`)
      }
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: PHONE_HEIGHT })
        const o = await overflow(page)
        if (o.scrollWidth > o.width)
          wide.push(`${url} at ${width}: ${o.scrollWidth} px (${o.wider.join(', ')})`)
        for (const tab of await hiddenTabs(page)) hidden.push(`${url} at ${width}: ${tab}`)
        await expectAccessible(page, `${url} at ${width} px`)
      }
      // The same screen on a desktop, reached from the keyboard: the first Tab lands on something visible.
      await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height })
      const d = await overflow(page)
      if (d.scrollWidth > d.width) wide.push(`${url} at ${DESKTOP.width}: ${d.scrollWidth} px`)
      await expectAccessible(page, `${url} at ${DESKTOP.width} px`)
      await page.locator('body').focus()
      await page.keyboard.press('Tab')
      const focused = await page.evaluate(() => {
        const el = document.activeElement
        if (!el || el === document.body) return null
        const box = el.getBoundingClientRect()
        return box.width > 0 && box.height > 0 ? el.tagName : null
      })
      if (!focused) unreachable.push(url)
    }
    expect(wide, 'agent screens wider than the phone').toEqual([])
    expect(unreachable, 'screens whose first Tab reaches nothing visible').toEqual([])
    expect(hidden, 'selected tabs out of view').toEqual([])
  }, 600_000)
})

describe('a team invitation on a phone', () => {
  /** Where a button sits on the page (not the viewport): its bottom must be within the first screen. */
  const pageBottom = (page: Page, name: string) =>
    page
      .getByRole('button', { name })
      .evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY - window.innerHeight)

  it('opens the invitation of the mail link with Accept and Decline on the first screen', async () => {
    const firm = `FIRM-${randomBytes(4).toString('hex')}`
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm }, 'Team')
    const invited = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ines' })
    // The dashboard the invited agent comes back to is a busy one: its open houses and their guests.
    for (let i = 0; i < 3; i++) await hostedGuest(t, lead, invited)
    const teamName = `Harbor Hosts ${randomBytes(2).toString('hex')}`
    const team = await t.db
      .insertInto('reTeam')
      .values({
        reTeamName: teamName,
        teamType: 'Real Estate Team',
        reTeamLeadId: lead.agent.id,
        createdByReAgentId: lead.agent.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .insertInto('reTeamMember')
      .values({ reTeamId: team.id, reAgentId: invited.agent.id, addedByReAgentId: lead.agent.id })
      .execute()

    for (const width of WIDTHS) {
      const page = await browser.signedIn(invited, { viewport: { width, height: PHONE_HEIGHT } })
      // The link of the invitation mail (tests/api/teams.test.ts checks the mail carries it).
      await page.goto(`${t.url}/dashboard?invitation=${team.id}`)
      await settled(page)
      await expect.poll(() => pageBottom(page, `Accept the invitation to ${teamName}`)).toBeLessThanOrEqual(0)
      expect(await pageBottom(page, `Decline the invitation to ${teamName}`)).toBeLessThanOrEqual(0)
      await expectAccessible(page, `the invitation at ${width} px`)
      await page.context().close()
    }
  })

  it('brings the invitation into view from the dashboard’s Answer', async () => {
    const firm = `FIRM-${randomBytes(4).toString('hex')}`
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: firm }, 'Team')
    const invited = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Ida' })
    const teamId = await makeTeam(t.db, lead, [])
    await t.db
      .insertInto('reTeamMember')
      .values({ reTeamId: teamId, reAgentId: invited.agent.id, addedByReAgentId: lead.agent.id })
      .execute()
    const page = await browser.signedIn(invited, { viewport: { width: 390, height: PHONE_HEIGHT } })
    await page.goto(`${t.url}/dashboard`)
    await settled(page)
    await page.getByRole('link', { name: /^Answer the invitation to / }).click()
    const accept = page.getByRole('button', { name: /^Accept the invitation to / })
    await expect
      .poll(() =>
        accept.evaluate((el) => {
          const box = el.getBoundingClientRect()
          return box.top >= 0 && box.bottom <= window.innerHeight
        }),
      )
      .toBe(true)
  })
})

describe('the walk’s small things', () => {
  it('shows no end date and no Auto Renew for the free Solo plan, and both for a paid one', async () => {
    const solo = await makePlannedAgent(t.db, {}, 'Solo')
    const page = await browser.signedIn(solo, { viewport: { width: 390, height: PHONE_HEIGHT } })
    await page.goto(`${t.url}/mystuff?activeSection=myPricingPlan`)
    const panel = page.getByRole('tabpanel', { name: 'My Pricing Plan' })
    await panel.getByText('Start Date').waitFor()
    expect(await panel.getByText('End Date').count()).toBe(0)
    expect(await panel.getByText('Auto Renew').count()).toBe(0)

    const paid = await makePlannedAgent(t.db, {}, 'Team')
    await t.db
      .updateTable('pricingPlanPurchase')
      .set({ totalReceivable: 29.99 })
      .where('reAgentId', '=', paid.agent.id)
      .execute()
    const paidPage = await browser.signedIn(paid, { viewport: { width: 390, height: PHONE_HEIGHT } })
    await paidPage.goto(`${t.url}/mystuff?activeSection=myPricingPlan`)
    await paidPage.getByRole('tabpanel', { name: 'My Pricing Plan' }).getByText('Auto Renew').waitFor()
  })

  it('offers the Team plan to a Team Lead only, the role that may create teams', async () => {
    const agent = await makePlannedAgent(t.db, {}, 'Solo')
    const page = await browser.signedIn(agent, { viewport: { width: 390, height: PHONE_HEIGHT } })
    await page.goto(`${t.url}/pricingplans?reAgentId=${agent.agent.id}`)
    await page.getByRole('article', { name: 'Brokerage' }).waitFor()
    await expect.poll(() => page.getByRole('article', { name: 'Team', exact: true }).count()).toBe(0)
    expect(await page.getByRole('article', { name: 'Solo' }).count()).toBe(1)

    const lead = await makePlannedAgent(t.db, { role: 'Team Lead' }, 'Solo')
    const leadPage = await browser.signedIn(lead, { viewport: { width: 390, height: PHONE_HEIGHT } })
    await leadPage.goto(`${t.url}/pricingplans?reAgentId=${lead.agent.id}`)
    await leadPage.getByRole('article', { name: 'Team', exact: true }).waitFor()
  })

  it('keeps each section title of the guest form inside its card', async () => {
    const host = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const page = await browser.newPage({ viewport: { width: 390, height: PHONE_HEIGHT } })
    await page.goto(
      `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`,
    )
    await page
      .getByRole('link', { name: 'Sign In' })
      .or(page.getByRole('button', { name: 'Sign In' }))
      .first()
      .click()
    await page.locator('fieldset > legend').first().waitFor()
    const straddling = await page.evaluate(() =>
      [...document.querySelectorAll('fieldset')].flatMap((set) => {
        const legend = set.querySelector(':scope > legend')
        const border = Number.parseFloat(getComputedStyle(set).borderTopWidth)
        if (!legend || border === 0) return []
        const top = set.getBoundingClientRect().top + border
        return legend.getBoundingClientRect().top < top ? [legend.textContent] : []
      }),
    )
    expect(straddling).toEqual([])
  })
})
