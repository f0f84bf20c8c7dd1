import fs from 'node:fs'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
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
    context.setDefaultTimeout(10_000)
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
