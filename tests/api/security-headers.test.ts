// What the browser, proxies and caches are told with every kind of answer: nothing the API answers is
// kept by a cache (Cache-Control: no-store on a session's JSON, its errors, the door-sign PDF, the vCard,
// the CSV export, the secret calendar feed and seller report), and every answer — pages and files of
// the web app too — carries a Permissions-Policy that leaves a page of ours the location and the
// clipboard only (no camera, microphone, payment…).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { guestSignIn } from '../support/webhook-receiver.ts'

let t: TestApp
let agent: Awaited<ReturnType<typeof makePlannedAgent>>
let openHouseId: number
let prospectId: number
let feedUrl: string
let reportUrl: string

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  agent = await makePlannedAgent(t.db)
  openHouseId = (await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })).id
  prospectId = (await guestSignIn(t, openHouseId)).id
  feedUrl = (
    await t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${agent.agent.id}`, { token: agent.token })
  ).body.data.url
  const link = await t.call('POST', `/openhousemgmt/createSellerReportLink/${openHouseId}`, {
    token: agent.token,
  })
  expect(link.status).toBe(201)
  const token = String(link.body.data.url).split('/').at(-1)
  reportUrl = `${t.url}/api/public/getSellerReport/${token}`
})
afterAll(async () => {
  await t?.close()
})

const signedIn = (path: string) =>
  fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${agent.token}` } })

function permissions(res: Response): Map<string, string> {
  const header = res.headers.get('permissions-policy') ?? ''
  return new Map(
    header
      .split(',')
      .map((d) => d.trim().split('='))
      .map(([feature, allow]) => [feature ?? '', allow ?? ''] as [string, string]),
  )
}

describe('answers kept by no cache', () => {
  const answers: Array<[string, () => Promise<Response>, number, RegExp]> = [
    [
      'JSON of a session',
      () => signedIn(`/api/reagentmgmt/getREAgentDetails/${agent.agent.id}`),
      200,
      /json/,
    ],
    ['the door-sign PDF', () => signedIn(`/api/openhousemgmt/getDoorSignPdf/${openHouseId}`), 200, /pdf/],
    ['a vCard', () => signedIn(`/api/prospectmgmt/getProspectVCard/${prospectId}`), 200, /vcard/],
    ['the CSV export', () => signedIn(`/api/prospectmgmt/export/${agent.agent.id}.csv`), 200, /csv/],
    ['a 404 of a session', () => signedIn('/api/reagentmgmt/getREAgentDetails/999999999'), 404, /json/],
    ['a 403 without one', () => fetch(`${t.url}/api/openhousemgmt/getMyUpcomingOH/1`), 403, /json/],
    ['the calendar feed', () => fetch(feedUrl), 200, /calendar/],
    ['the seller report', () => fetch(reportUrl), 200, /json/],
  ]

  it.each(answers)('%s', async (_what, get, status, type) => {
    const res = await get()
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(type)
    expect(res.headers.get('cache-control')).toBe('no-store')
    await res.arrayBuffer()
  })
})

describe('the permissions policy', () => {
  it.each([
    ['the app page', '/'],
    ['a guest page', `/public/openhouse/${1}`],
    ['an API answer', '/api/health'],
    ['an API error', '/api/no-such-route'],
    ['the unsubscribe page', '/api/public/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
  ])('is on %s (%s)', async (_what, path) => {
    const res = await fetch(`${t.url}${path}`)
    await res.arrayBuffer()
    const policy = permissions(res)
    expect(policy.get('camera')).toBe('()')
    expect(policy.get('microphone')).toBe('()')
    expect(policy.get('payment')).toBe('()')
    expect(policy.get('usb')).toBe('()')
    expect(policy.get('display-capture')).toBe('()')
    expect(policy.get('geolocation')).toBe('(self)')
    expect(policy.get('clipboard-write')).toBe('(self)')
    // Nothing is allowed to anyone but our own pages.
    for (const allow of policy.values()) expect(['()', '(self)']).toContain(allow)
  })

  it("keeps the web app's files cacheable", async () => {
    const page = await (await fetch(`${t.url}/`)).text()
    const asset = /"(\/assets\/[^"]+\.(?:js|css))"/.exec(page)?.[1]
    if (!asset) throw new Error('no asset in the page')
    const res = await fetch(`${t.url}${asset}`)
    await res.arrayBuffer()
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/)
    expect(permissions(res).get('camera')).toBe('()')
  })
})
