import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PROSPECT_CSV_HEADERS } from '@porchlight/shared'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, tabTo } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)
/** Every screen the test passes through is checked with axe; set SCREENSHOTS=dir to keep a picture too. */
const shots = process.env.SCREENSHOTS

async function snap(page: Page, name: string) {
  await expectAccessible(page, name, { alsoAtPhoneWidth: true })
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `${name.replaceAll(' ', '-')}.png`), fullPage: true })
}
const unique = () => randomBytes(3).toString('hex')

/** Opens a react-aria select by its label and picks the option whose text starts with `option`. */
async function choose(page: Page, within: Locator, label: string, option: string) {
  await within.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: new RegExp(`^${option}`) }).click()
}

describe('prospects as a small CRM in the browser', () => {
  it("filters the list to 'no realtor', pages it, adds a note and a stage to one, and exports what is filtered", async () => {
    const owner = await makePlannedAgent(t.db, { firstName: 'Nora', lastName: 'Needham' })
    // Eleven leads without a realtor (two pages of 10) and one working with a realtor.
    const save = async (first: string, last: string, realtor: boolean) => {
      const res = await t.call('POST', '/prospectmgmt/saveProspect', {
        token: owner.token,
        body: {
          prospectFirstName: first,
          prospectLastName: last,
          prospectEmailId: `${first.toLowerCase()}-${unique()}@example.com`,
          prospectPhoneNumber: '404 555 0166',
          prospectCity: 'Roswell',
          workingWithREAgentFlag: realtor ? 'true' : 'false',
        },
      })
      if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    }
    await save('Ada', 'Abbott', false)
    await save('Rita', 'Realtored', true)
    for (let i = 1; i <= 10; i++) await save(`Lead${i}`, 'Walker', false)

    const page = await signedIn(owner)
    await page.goto(`${t.url}/prospects`)
    await page.getByRole('heading', { level: 1, name: 'Prospects' }).waitFor()
    await expect.poll(() => page.getByText('Showing 1–10 of 12').count()).toBe(1)
    await snap(page, 'prospects list')

    // No realtor: Rita leaves the list, and the address keeps the filter.
    await page.getByText('No realtor (Leads Without Realtor only)').click()
    await page.waitForURL(/noRealtor=true/)
    await expect.poll(() => page.getByText('Showing 1–10 of 11').count()).toBe(1)
    await expect.poll(() => page.getByRole('heading', { name: 'Rita Realtored' }).count()).toBe(0)
    await snap(page, 'prospects filtered to no realtor')

    // The oldest is on page 2.
    await page.getByRole('button', { name: 'Next page' }).click()
    await expect.poll(() => page.getByText('Showing 11–11 of 11').count()).toBe(1)
    await page.getByRole('heading', { name: 'Rita Realtored' }).waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'View Ada Abbott' }).waitFor()
    await page.getByRole('button', { name: 'Previous page' }).click()
    await expect.poll(() => page.getByText('Showing 1–10 of 11').count()).toBe(1)

    // Ada's details: call and mail links, stage and follow-up, notes.
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.getByRole('button', { name: 'View Ada Abbott' }).click()
    const dialog = page.getByRole('dialog', { name: 'Prospect Details' })
    await dialog.getByRole('heading', { name: 'Notes' }).waitFor()
    expect(await dialog.getByRole('link', { name: /^Call 404 555 0166/ }).getAttribute('href')).toBe(
      'tel:4045550166',
    )
    expect(await dialog.getByRole('link', { name: /^Email ada-/ }).getAttribute('href')).toMatch(
      /^mailto:ada-[0-9a-f]+@example\.com$/,
    )
    await dialog.getByText('No notes yet.', { exact: false }).waitFor()
    await snap(page, 'prospect details with notes')

    // An empty note is refused beside its field; a real one is added on top and the box empties.
    // From the keyboard: Tab reaches Add Note (focus shown), Enter submits.
    await tabTo(page, dialog.getByRole('button', { name: 'Add Note' }))
    await page.keyboard.press('Enter')
    await dialog.getByText('Note is required').waitFor()
    const noteBox = dialog.getByRole('textbox', { name: 'New Note' })
    await noteBox.fill('Met at the door; wants a fenced yard.')
    await dialog.getByRole('button', { name: 'Add Note' }).click()
    await dialog
      .getByRole('list', { name: 'Notes, newest first' })
      .getByText('Met at the door; wants a fenced yard.')
      .waitFor()
    expect(await noteBox.inputValue()).toBe('')

    await choose(page, dialog, 'Stage', 'Contacted')
    await dialog.getByRole('button', { name: 'Update' }).click()
    await dialog.getByText('Stage and follow-up saved.').waitFor()
    await snap(page, 'prospect details after a note and a stage')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('article', { name: 'Ada Abbott' }).getByText('Contacted').waitFor()

    // Export: the filtered list (no Rita), with the CRM headers, Ada's tag and note, under a dated name.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Filtered CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^porchlight-prospects-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '')
    const lines = csv.trimEnd().split(/\r?\n/)
    expect(lines[0]).toBe(
      'First Name,Last Name,Email,Phone,Address,City,State,Zip,Source,Tags,Notes,Email Consent',
    )
    expect(lines[0]).toBe(PROSPECT_CSV_HEADERS.join(','))
    expect(lines).toHaveLength(12)
    expect(csv).not.toContain('Realtored')
    const ada = lines.find((line) => line.startsWith('Ada,Abbott,'))
    expect(ada).toMatch(
      /,Roswell,,,Porchlight,"Contacted, No Realtor",\d{4}-\d{2}-\d{2}: Met at the door; wants a fenced yard\.,Not asked$/,
    )

    // The same filtered list as contact cards, one vCard 4.0 per prospect.
    const [cards] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Filtered vCards' }).click(),
    ])
    expect(cards.suggestedFilename()).toMatch(/^porchlight-prospects-\d{4}-\d{2}-\d{2}\.vcf$/)
    const vcf = fs.readFileSync(await cards.path(), 'utf8')
    expect(vcf.match(/^BEGIN:VCARD\r?$/gm)).toHaveLength(11)
    expect(vcf).toMatch(/^FN:Ada Abbott\r?$/m)
    expect(vcf).not.toContain('Realtored')
  }, 120_000)
})
