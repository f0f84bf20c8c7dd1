import fs from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

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
