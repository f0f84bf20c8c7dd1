// Migration 202611290005 on a database that holds what the code before it wrote: a guest mail waiting to
// go out with its unsubscribe link in its bodies and header, a calendar feed found by its plain token,
// and a listing link with a javascript: scheme. After it, no stored body holds the link, the feed is
// still found at its old address, the mail goes out with the very link it was written with, the worker
// seals the link it moved, and the javascript: link is gone.

import fs from 'node:fs'
import { createMigrator, migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { migrationsDir } from '../support/global-setup.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { until } from '../support/webhook-receiver.ts'

const MIGRATION = '202611290005-seal-secrets-check-links-mark-replays'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

describe('migration 202611290005', () => {
  it('takes links out of stored mail, keeps feeds at their address and drops javascript: listing links', async () => {
    const olive = await makePlannedAgent(t.db, { firstName: 'Olive' })
    const openHouse = await scheduleOpenHouse(t, olive, { listingURL: 'https://example.com/listing/1' })
    const other = await scheduleOpenHouse(t, olive)

    // Back to the migration before this one.
    const names = fs
      .readdirSync(migrationsDir)
      .map((f) => f.replace(/\.ts$/, ''))
      .sort()
    const before = names[names.indexOf(MIGRATION) - 1]
    if (!before) throw new Error(`no migration before ${MIGRATION}`)
    // biome-ignore lint/suspicious/noExplicitAny: the schema before the migration is not the typed one.
    const raw = t.db as unknown as Kysely<any>
    const { error } = await createMigrator(raw, migrationsDir).migrateTo(before)
    if (error) throw error

    // What the code before it stored.
    const token = 'Tk9fU0VBTEVEX1RPS0VOX2F0X2FsbF8xMjM0NTY3'
    const link = `${t.url}/api/public/unsubscribe/${token}`
    const feedToken = 'cGxhaW5fZmVlZF90b2tlbl9iZWZvcmVfc2VhbGluZw'
    const { rows } = await sql<{ id: number }>`
      insert into mail (to_address, subject, text_body, html_body, headers, status)
      values ('gina@example.com', 'Thank you for visiting',
        ${`Thanks for coming.\n\nDon't want these mails? Unsubscribe: ${link}`},
        ${`<html><body><p>Thanks.</p><p>Don't want these mails? <a href="${link}">Unsubscribe</a></p></body></html>`},
        ${JSON.stringify({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })},
        'queued')
      returning id`.execute(raw)
    const mailId = rows[0]?.id as number
    await sql`insert into calendar_feed (re_agent_id, token) values (${olive.agent.id}, ${feedToken})`.execute(
      raw,
    )
    await sql`update open_house set listing_url = 'JavaScript:alert(document.cookie)' where id = ${other.id}`.execute(
      raw,
    )

    await migrateToLatest(raw, migrationsDir)

    const stored = await t.db
      .selectFrom('mail')
      .selectAll()
      .where('id', '=', mailId)
      .executeTakeFirstOrThrow()
    expect(stored.textBody).toContain('Unsubscribe: {{porchlight:unsubscribe}}')
    expect(stored.htmlBody).toContain('href="{{porchlight:unsubscribe}}"')
    expect(stored.headers).toMatchObject({ 'List-Unsubscribe': '<{{porchlight:unsubscribe}}>' })
    expect(JSON.stringify([stored.textBody, stored.htmlBody, stored.headers])).not.toContain(token)
    // Plain in its own column until a worker seals it.
    expect(stored.unsubscribeUrl).toBe(link)

    const listings = await t.db
      .selectFrom('openHouse')
      .select(['id', 'listingUrl'])
      .where('id', 'in', [openHouse.id, other.id])
      .orderBy('id')
      .execute()
    expect(listings).toEqual([
      { id: openHouse.id, listingUrl: 'https://example.com/listing/1' },
      { id: other.id, listingUrl: null },
    ])

    // The feed answers at its old address, and the agent is shown the same one.
    expect((await fetch(`${t.url}/api/public/calendar/${feedToken}.ics`)).status).toBe(200)
    const shown = await t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${olive.agent.id}`, {
      token: olive.token,
    })
    expect(shown.body.data.url).toBe(`${t.url}/api/public/calendar/${feedToken}.ics`)

    // A worker starts: it seals what the migration left plain, and the mail goes out with its link.
    t.startWorker()
    await until(async () => {
      const row = await t.db
        .selectFrom('mail')
        .select('unsubscribeUrl')
        .where('id', '=', mailId)
        .executeTakeFirst()
      return row?.unsubscribeUrl?.startsWith('sk1.')
    }, 'the link sealed')
    const { rows: mails } = await sql<{
      row: string
    }>`select to_jsonb(m)::text as row from mail m where id = ${mailId}`.execute(raw)
    expect(mails[0]?.row).not.toContain(token)
    const feed = await sql<{
      token: string
    }>`select token from calendar_feed where re_agent_id = ${olive.agent.id}`.execute(raw)
    expect(feed.rows[0]?.token).toMatch(/^sk1\./)
    await inTransaction(t.db, (trx) => t.app.deps.outbox.add(trx, 'mail', 'send', { mailIds: [mailId] }))
    const [sent] = await smtp.waitFor((m) => m.to.includes('gina@example.com'))
    expect(sent?.text).toContain(`Unsubscribe: ${link}`)
    expect(sent?.html).toContain(`href="${link}"`)
    expect(sent?.raw.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toContain(`<${link}>`)
  })
})
