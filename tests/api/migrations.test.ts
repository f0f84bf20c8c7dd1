import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import { migrateDownAll, migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { testDatabaseName } from '../support/databases.ts'
import { migrationsDir } from '../support/global-setup.ts'
import { withDatabase } from '../support/services.ts'

const name = testDatabaseName('migrate')
let handle: DbHandle

async function admin(query: string) {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') })
  await client.connect()
  await client.query(query).finally(() => client.end())
}

async function tables(): Promise<string[]> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%' order by 1`.execute(
    handle.db,
  )
  return rows.map((r) => r.tablename)
}

beforeAll(async () => {
  await admin(`create database "${name}"`)
  handle = createPostgresDb(withDatabase(inject('pgAdminUrl'), name), 2)
})
afterAll(async () => {
  await handle.close()
  await admin(`drop database if exists "${name}" with (force)`)
})

const everyEntity = [
  'agent_statistics',
  'agent_statistics_delta',
  'agent_visitor',
  'calendar_feed',
  'consent_event',
  'email_code',
  'fub_connector',
  'fub_delivery',
  'guest_follow_up',
  'guest_token',
  'guest_welcome',
  'integrated_agent',
  'mail',
  'notification_setting',
  'open_house',
  'open_house_attendee',
  'open_house_feedback',
  'open_house_question',
  'outbox',
  'porchlight_user',
  'pricing_plan',
  'pricing_plan_purchase',
  'prospect',
  'prospect_note',
  'push_claim_token',
  'push_message',
  'push_subscription',
  're_agent',
  're_agent_role_grant',
  're_inventory',
  're_property',
  're_team',
  're_team_member',
  'seller_report_link',
  'seller_report_mail',
  'session',
  'stats_pending',
  'team_person',
  'team_statistics',
  'team_statistics_delta',
  'team_visitor',
  'unsubscribe_token',
  'webhook_delivery',
  'webhook_endpoint',
]

describe('migrations on PostgreSQL', () => {
  it('create every entity, drop them all again, and re-create them', async () => {
    const up = await migrateToLatest(handle.db, migrationsDir)
    expect(up.length).toBeGreaterThan(0)
    expect(await tables()).toEqual(everyEntity)

    const down = await migrateDownAll(handle.db, migrationsDir)
    expect(down).toEqual([...up].reverse())
    expect(await tables()).toEqual([])

    await migrateToLatest(handle.db, migrationsDir)
    expect(await tables()).toEqual(everyEntity)
  })
})
