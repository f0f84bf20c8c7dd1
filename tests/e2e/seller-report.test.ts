import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, PHONE_WIDTH } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
/** Set SCREENSHOTS=dir to keep pictures of the seller's report. */
const shots = process.env.SCREENSHOTS

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { newPage, signedIn } = browserHarness(() => t)

async function snap(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

const visitor = {
  prospectFirstName: 'Zephyrine',
  prospectLastName: 'Quillfeather',
  prospectEmailId: 'zephyrine.quillfeather@example.org',
  prospectPhoneNumber: '678 555 0142',
}
/** Every way the visitor could show: names, email, the phone as typed and as digits. */
const PII = [
  visitor.prospectFirstName,
  visitor.prospectLastName,
  visitor.prospectEmailId,
  'zephyrine.quillfeather',
  visitor.prospectPhoneNumber,
  '6785550142',
  '555 0142',
  '555-0142',
]

describe('the seller report', () => {
  it('prints a Chinese, Cyrillic or Vietnamese address as typed, drawn by a font that has its letters', async () => {
    // What headless Chromium's PDF gives back exactly. The CJK agent's name is a normal-weight line:
    // before decision 051 it printed with DejaVu's empty glyph. Not yet: pdf.js reads Chromium's Arabic
    // back as presentation forms (decision 042).
    const cases = [
      { first: '美玲', last: '李', street: '北京路 12号', cjk: true },
      { first: 'Ольга', last: 'Иванова', street: 'улица Ленина 5', cjk: false },
      { first: 'Thị', last: 'Nguyễn', street: '12 Đường Lê Lợi', cjk: false },
    ]
    for (const c of cases) {
      const listing = await makePlannedAgent(t.db, { firstName: c.first, lastName: c.last })
      const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
      await t.db
        .updateTable('reProperty')
        .set({ propertyAddress1: c.street })
        .where('id', '=', oh.rePropertyId)
        .execute()
      const link = await t.call('POST', `/openhousemgmt/createSellerReportLink/${oh.id}`, {
        token: listing.token,
        body: {},
      })
      expect(link.status, JSON.stringify(link.body)).toBe(201)
      const page = await newPage()
      await page.goto(link.body.data.url)
      await page.getByText(`Listing agent: ${c.first} ${c.last}`).waitFor()
      // As a seller presses Print once the page has drawn: the faces its letters asked for have arrived.
      await page.waitForFunction(() => document.fonts.status === 'loaded')
      const bytes = await page.pdf({ format: 'Letter', printBackground: true })
      const pdf = await getDocumentProxy(new Uint8Array(bytes))
      const { text } = await extractText(pdf, { mergePages: true })
      const flat = text.replace(/\s+/g, ' ')
      expect(flat, c.street).toContain(c.street)
      // The agent's name in normal weight reads back, CJK included.
      expect(flat).toContain(`Listing agent: ${c.first} ${c.last}`)
      // The CJK letters are drawn by Noto Sans SC, served with the page, not left to whatever fonts
      // the printing computer has (this one has none: without it they were empty boxes).
      if (c.cjk) expect(Buffer.from(bytes).toString('latin1')).toMatch(/NotoSansSC/)
      await page.context().close()
    }
  })

  it('a seller opens the report link on a phone and sees a new visitor appear without reload, and no name or contact appears anywhere in the page or its network responses', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lorelai', lastName: 'Listwell' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })

    // The listing agent makes the link from the attendee board.
    const board = await signedIn(listing)
    await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage`)
    await board.getByRole('button', { name: 'Seller report' }).click()
    const dialog = board.getByRole('dialog', { name: 'Seller report link' })
    await dialog.getByText('No working link.').waitFor()
    await dialog.getByRole('button', { name: /Create a link/ }).click()
    const field = dialog.getByRole('textbox', { name: 'Link for the seller' })
    await field.waitFor()
    const url = await field.inputValue()
    expect(url).toMatch(new RegExp(`^${t.url}/seller/[\\w-]{43}$`))
    await dialog.getByText(/^1 working link/).waitFor()
    // The seller kept informed (decision 051): the listing agent adds the seller's email to the link.
    await dialog.getByRole('textbox', { name: "Seller's email (optional)" }).fill('the.seller@example.com')
    await dialog.getByRole('button', { name: 'Save email' }).click()
    await dialog.getByRole('status').filter({ hasText: 'Saved' }).waitFor()
    const saved = await t.call('GET', `/openhousemgmt/getSellerReportLink/${oh.id}`, { token: listing.token })
    expect(saved.body.data.seller.email).toBe('the.seller@example.com')
    await expectAccessible(board, 'seller report link dialog')
    await snap(board, 'seller-link-dialog')

    // The seller, on a phone, records every answer the page gets and every socket message.
    const seller = await newPage({
      viewport: { width: PHONE_WIDTH, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const bodies: Array<Promise<string>> = []
    seller.on('response', (res) => {
      bodies.push(res.text().catch(() => ''))
    })
    const frames: string[] = []
    seller.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => frames.push(String(frame.payload)))
    })

    await seller.goto(url)
    const count = seller.getByTestId('seller-visitor-count')
    await expect.poll(() => count.textContent()).toBe('0 visitors')
    await seller.getByText(/No visitors yet/).waitFor()
    // A mark on this document: a reload would start a new one without it.
    await seller.evaluate(() => Object.assign(window, { sameDocument: true }))
    const notReloaded = () => seller.evaluate(() => 'sameDocument' in window)
    await expectAccessible(seller, 'seller report, no visitors yet', { alsoAtPhoneWidth: true })
    await snap(seller, 'seller-report-empty')
    // The page's socket is in its room before anyone signs in.
    await expect.poll(() => frames.length, { timeout: 10_000 }).toBeGreaterThan(0)

    // A visitor signs in at the door, then leaves feedback naming itself and its contact details.
    const signIn = await t.call('POST', '/public/saveProspect', {
      body: {
        ...visitor,
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
        heardAboutThisOpenHouse: 'Signs',
        homeBuyingTimelines: '1-3 Months',
        workingWithREAgentFlag: 'false',
      },
    })
    expect(signIn.status).toBe(201)
    await expect.poll(() => count.textContent()).toBe('1 visitor')
    await seller.getByText('Heard: Signs · Timeline: 1-3 Months · No agent').waitFor()

    const feedback = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: {
        openHouseId: oh.id,
        prospectId: signIn.body.data.id,
        guestToken: signIn.body.data.guestToken,
        feedbackText: `Zephyrine Quillfeather here, loved the kitchen! Reach me at ${visitor.prospectEmailId} or ${visitor.prospectPhoneNumber}.`,
        ...Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, ''])),
        kitchen: 5,
        homeCondition: 4,
      },
    })
    expect(feedback.status).toBe(201)
    await seller.getByText('[name] [name] here, loved the kitchen! Reach me at [email] or [phone].').waitFor()
    await seller.getByText('5.0 of 5').waitFor()
    expect(await notReloaded()).toBe(true)

    await expectAccessible(seller, 'seller report with a visitor', { alsoAtPhoneWidth: true })
    await snap(seller, 'seller-report-visitor')

    const html = await seller.content()
    const text = await seller.evaluate(() => document.body.textContent ?? '')
    const received = [...(await Promise.all(bodies)), ...frames]
    expect(received.some((body) => body.includes('"visitors"'))).toBe(true)
    for (const pii of PII) {
      expect(html, `page HTML shows ${pii}`).not.toContain(pii)
      expect(text, `page text shows ${pii}`).not.toContain(pii)
      expect(
        received.filter((body) => body.includes(pii)),
        `a network answer carries ${pii}`,
      ).toEqual([])
    }

    // Revoked: the open page learns it at once, still without a reload.
    const revoke = await t.call('DELETE', `/openhousemgmt/revokeSellerReportLink/${oh.id}`, {
      token: listing.token,
    })
    expect(revoke.status).toBe(200)
    await seller.getByText('This link has expired or was revoked').waitFor()
    expect(await notReloaded()).toBe(true)
    await expectAccessible(seller, 'seller report, link revoked', { alsoAtPhoneWidth: true })
    await snap(seller, 'seller-report-revoked')
  }, 120_000)
})
