import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { AxeResults, ImpactValue } from 'axe-core'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import type { TestApp } from './app.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's Chromium driven by playwright-core; the project installs it (apt-get install chromium). */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: run 'apt-get install -y chromium' or set CHROMIUM_PATH`,
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

/**
 * For `expect.poll` on what a page shows live (a socket event, then a refetch): it waits 1 s by default, and
 * on a busy two-core machine the event and the refetch may take longer. What is asserted is that the page
 * changes without a reload, not how fast.
 */
export const LIVE = { timeout: 10_000 }

/**
 * Browser contexts for one test file: each agent gets a browser of its own, signed in as the app
 * leaves it after sign-in (the token and profile in local storage, web/src/api/storage.ts). Contexts
 * close after each test, and any page error fails it.
 */
export function browserHarness(app: () => { url: string; call: TestApp['call'] }) {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  const pageErrors: string[] = []
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()))
    expect(pageErrors.splice(0)).toEqual([])
  })

  async function newPage(
    options: BrowserContextOptions = { viewport: { width: 1280, height: 900 } },
  ): Promise<Page> {
    if (!browser) throw new Error('the browser starts in beforeAll')
    const context = await browser.newContext(options)
    contexts.push(context)
    // A first visit loads the app's chunks while other test files share the two cores: a step may take
    // several seconds there without anything being wrong.
    context.setDefaultTimeout(20_000)
    const page = await context.newPage()
    page.on('pageerror', (err) => pageErrors.push(err.message))
    return page
  }

  return {
    newPage,
    async signedIn(
      agent: { token: string; agent: { id: number } },
      options?: BrowserContextOptions,
    ): Promise<Page> {
      const page = await newPage(options)
      const profile = await app().call('GET', `/reagentmgmt/getREAgentDetails/${agent.agent.id}`, {
        token: agent.token,
      })
      await page.goto(app().url)
      await page.evaluate(
        ({ token, profile }) => {
          localStorage.setItem('porchlightUserToken', token)
          localStorage.setItem('porchlightLoggedInProfile', profile)
        },
        { token: agent.token, profile: JSON.stringify(profile.body.data) },
      )
      return page
    },
  }
}

/** WCAG 2.0 A/AA, 2.1 AA and 2.2 AA: the rules expectAccessible runs. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']
const BLOCKING: ImpactValue[] = ['serious', 'critical']
/** Elements listed for one rule; the rest are counted. */
const SHOWN_NODES = 5
/** Characters of each element's HTML shown. */
const HTML_SHOWN = 200
let axeSource: string | undefined

/** A phone held in one hand, as the guest journeys use it. */
export const PHONE_WIDTH = 390

/**
 * Runs axe-core (WCAG 2.2 AA) on what the page shows now and fails the test, with a readable list
 * of each rule, its impact, the elements and the help, on any serious or critical violation (minor
 * and moderate ones are not failed on). The failure is soft: the journey goes on, so one run lists
 * every screen's violations. `alsoAtPhoneWidth` checks the same screen again 390 px wide, then gives
 * the page its viewport back.
 */
export async function expectAccessible(
  page: Page,
  label: string,
  options: { alsoAtPhoneWidth?: boolean } = {},
): Promise<void> {
  await checkAxe(page, label)
  if (!options.alsoAtPhoneWidth) return
  const viewport = page.viewportSize()
  if (!viewport) throw new Error('expectAccessible: the page has no fixed viewport to resize')
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 })
  try {
    await checkAxe(page, `${label} at ${PHONE_WIDTH} px`)
  } finally {
    await page.setViewportSize(viewport)
  }
}

async function checkAxe(page: Page, label: string) {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  // Injected through the DevTools protocol, which the app's CSP (script-src 'self') leaves alone
  // where a <script> tag of page.addScriptTag would be refused.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  // Looked at as a person would, in front: a tab behind another of its window gets a frame a second.
  await page.bringToFront()
  // Let layout settle and finite transitions (a toast fading in) end before colours are measured.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY))
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)))
  })
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe.run(
        document,
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      ),
    WCAG_TAGS,
  )
  const report = results.violations
    .filter((v) => BLOCKING.includes(v.impact ?? null))
    .map((v) =>
      [
        `${v.id} (${v.impact}): ${v.help} ${v.helpUrl}`,
        ...v.nodes
          .slice(0, SHOWN_NODES)
          .map(
            (n) =>
              `  ${n.target.join(' ')}: ${n.html.length > HTML_SHOWN ? `${n.html.slice(0, HTML_SHOWN)}…` : n.html}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`,
          ),
        ...(v.nodes.length > SHOWN_NODES ? [`  …and ${v.nodes.length - SHOWN_NODES} more elements`] : []),
      ].join('\n'),
    )
  expect.soft(report, `axe: serious or critical WCAG 2.2 AA violations on ${label}`).toEqual([])
}

/**
 * Reaches `target` from where focus is with the Tab key alone, as a keyboard user would, and checks
 * that focus shows there (its outline or ring differs from the unfocused look) and is not hidden
 * under anything (WCAG 2.4.7, 2.4.11). Fails when `maxPresses` Tabs do not get there.
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
  const look = (el: Element) => {
    const style = getComputedStyle(el)
    return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow}`
  }
  const unfocused = await target.evaluate(look)
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab')
    if (!(await target.evaluate((el) => el === document.activeElement))) continue
    const focused = await target.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const onTop = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return { visible: el.matches(':focus-visible'), uncovered: onTop !== null && el.contains(onTop) }
    })
    expect(focused, `focus on ${target} after ${presses} Tabs`).toEqual({ visible: true, uncovered: true })
    await expect
      .poll(() => target.evaluate(look), { message: `the focus indicator of ${target}` })
      .not.toBe(unfocused)
    return
  }
  throw new Error(`${maxPresses} presses of Tab did not reach ${target}`)
}
