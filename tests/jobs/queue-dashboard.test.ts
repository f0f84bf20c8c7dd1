import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

const TOKEN = 'operator-secret-0123456789'
let t: TestApp
let plain: TestApp

beforeAll(async () => {
  t = await buildTestApp({ env: { QUEUE_DASHBOARD_TOKEN: TOKEN } })
  t.startWorker()
  plain = await buildTestApp({ sameAs: t })
})
afterAll(async () => {
  await plain.close()
  await t.close()
})

const basic = (password: string) => ({
  authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`,
})

describe('the queue dashboard', () => {
  it('asks for the token, then shows every queue with its failed jobs', async () => {
    expect((await fetch(`${t.url}/admin/queues`)).status).toBe(401)
    expect((await fetch(`${t.url}/admin/queues`, { headers: basic('wrong-token-000000') })).status).toBe(401)
    const page = await fetch(`${t.url}/admin/queues`, { headers: basic(TOKEN) })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')

    // A job no processor knows fails at once and must stay visible to the operator.
    await t.app.deps.queues.mail.add('unknown-job', {}, { attempts: 1 })
    await expect.poll(async () => (await t.app.deps.queues.mail.getFailed()).length).toBe(1)
    const api = await fetch(`${t.url}/admin/queues/api/queues?activeQueue=mail&status=failed`, {
      headers: basic(TOKEN),
    })
    const body = await api.json()
    const names = body.queues.map((q: { name: string }) => q.name)
    expect(names).toEqual(expect.arrayContaining(['mail', 'auto-clone']))
    const mail = body.queues.find((q: { name: string }) => q.name === 'mail')
    expect(mail.counts.failed).toBe(1)
    expect(mail.jobs[0].failedReason).toContain('no processor for mail/unknown-job')
  })

  it('is not there without the setting', async () => {
    const res = await fetch(`${plain.url}/admin/queues`)
    expect(res.status).toBe(404)
  })
})
