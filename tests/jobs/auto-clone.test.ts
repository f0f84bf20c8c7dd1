import { addDays } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink
let worker: ReturnType<TestApp['startWorker']>

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
  worker = t.startWorker()
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

/** As if the open house took place `days` ago. */
async function endIt(id: number, days = 1) {
  await t.db
    .updateTable('openHouse')
    .set({
      scheduledDate: daysFromNow(-days),
      startsAt: new Date(Date.now() - days * 86_400_000 - 7_200_000),
      endsAt: new Date(Date.now() - days * 86_400_000),
    })
    .where('id', '=', id)
    .execute()
}

const clonesOf = (id: number) =>
  t.db.selectFrom('openHouse').selectAll().where('autoCloneOfOpenHouseId', '=', id).execute()

describe('auto-clone', () => {
  it('queues a clone for the moment an auto-clone open house ends', async () => {
    const me = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, me, { autoCloneOpenHouseFlag: 'true' })
    const row = await t.db
      .selectFrom('outbox')
      .select(['payload', 'runAt'])
      .where('queue', '=', 'auto-clone')
      .executeTakeFirstOrThrow()
    expect(row.payload).toEqual({ openHouseId: oh.id })
    const ends = await t.db
      .selectFrom('openHouse')
      .select('endsAt')
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect(row.runAt?.toISOString()).toBe(ends.endsAt?.toISOString())
  })

  it('creates exactly one clone a week later, even when the job runs twice at once, and tells the agent', async () => {
    const me = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, me, { autoCloneOpenHouseFlag: 'true' })
    await endIt(oh.id)
    const results = await Promise.all([
      worker.openHouses.autoClone(oh.id),
      worker.openHouses.autoClone(oh.id),
    ])
    expect(results.sort()).toEqual(['cloned', 'skipped'])
    expect(await worker.openHouses.autoClone(oh.id)).toBe('skipped')
    const clones = await clonesOf(oh.id)
    expect(clones).toHaveLength(1)
    expect(clones[0]).toMatchObject({
      scheduledDate: addDays(daysFromNow(-1), 7),
      scheduledStartTime: '1:00 PM',
      listingReAgentId: me.agent.id,
      autoCloneOpenHouseFlag: true,
      publishedAt: null,
    })
    const [mail] = await smtp.waitFor((m) => m.to.includes(me.user.porchlightUserEmailId))
    expect(mail?.subject).toMatch(/scheduled again/)
    expect(mail?.text).toContain(addDays(daysFromNow(-1), 7))
  })

  it('leaves a canceled or not-yet-ended open house alone', async () => {
    const me = await makePlannedAgent(t.db)
    const future = await scheduleOpenHouse(t, me, { autoCloneOpenHouseFlag: 'true' })
    expect(await worker.openHouses.autoClone(future.id)).toBe('skipped')
    const canceled = await scheduleOpenHouse(t, me, { autoCloneOpenHouseFlag: 'true' })
    await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: me.token,
      body: { openHouseId: canceled.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    await endIt(canceled.id)
    expect(await worker.openHouses.autoClone(canceled.id)).toBe('skipped')
    expect(await clonesOf(canceled.id)).toEqual([])
  })

  it('respects the plan limit and tells the agent why nothing was scheduled', async () => {
    const me = await makePlannedAgent(t.db, {}, 'Solo')
    const oh = await scheduleOpenHouse(t, me, { autoCloneOpenHouseFlag: 'true' })
    await endIt(oh.id)
    await t.db
      .updateTable('pricingPlan')
      .set({ numberOfOpenHousesCreate: 1 })
      .where('pricingPlanTitle', '=', 'Solo')
      .execute()
    try {
      expect(await worker.openHouses.autoClone(oh.id)).toBe('refused')
    } finally {
      await t.db
        .updateTable('pricingPlan')
        .set({ numberOfOpenHousesCreate: 24 })
        .where('pricingPlanTitle', '=', 'Solo')
        .execute()
    }
    expect(await clonesOf(oh.id)).toEqual([])
    const [mail] = await smtp.waitFor(
      (m) => m.to.includes(me.user.porchlightUserEmailId) && /not scheduled/.test(m.subject),
    )
    expect(mail?.text).toContain('limit of scheduling open houses')
  })

  it('holds a delayed outbox job until its time', async () => {
    const { inTransaction } = await import('@porchlight/server/src/db/transaction.ts')
    const sentAt = Date.now()
    await inTransaction(t.db, async (trx) => {
      const mail = await trx
        .insertInto('mail')
        .values({
          toAddress: 'later@example.com',
          subject: 'Delayed',
          textBody: 'later',
          htmlBody: '<p>later</p>',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await t.app.deps.outbox.add(
        trx,
        'mail',
        'send',
        { mailId: mail.id },
        { runAt: new Date(sentAt + 1500) },
      )
    })
    await smtp.waitFor((m) => m.to.includes('later@example.com'))
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1400)
  })
})
