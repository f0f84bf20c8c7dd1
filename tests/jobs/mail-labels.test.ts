import { randomUUID } from 'node:crypto'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
  t.startWorker()
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

/** Every rating field's own name, as code spells it: none may reach a reader. */
const rawNames = new RegExp(`\\b(${FEEDBACK_RATING_FIELDS.join('|')})\\b`)

async function guestAt(openHouseId: number) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Jordan',
      prospectLastName: 'Rivers',
      prospectEmailId: `jordan-${randomUUID().slice(0, 6)}@example.com`,
      prospectPhoneNumber: '404 555 0142',
      workingWithREAgentFlag: 'false',
      openHouseId,
      clientRequestId: randomUUID(),
    },
  })
  return res.body.data as { id: number; guestToken: string }
}

const ratings = { curbAppeal: 5, closetsStorage: 3, agentKnowledge: 4, homeLot: 2 }

describe('the words of the mails', () => {
  it('names the ratings in the hosting report as the screens do', async () => {
    const listing = await makePlannedAgent(t.db)
    const host = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    const guest = await guestAt(oh.id)
    const feedback = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: { openHouseId: oh.id, prospectId: guest.id, guestToken: guest.guestToken, ...ratings },
    })
    expect(feedback.status).toBe(201)
    const sent = await t.call('POST', `/openhousemgmt/sendOpenHouseHostingReport/${oh.id}`, {
      token: host.token,
    })
    expect(sent.status).toBe(202)

    const [mail] = await smtp.waitFor((m) => m.to.includes(listing.user.porchlightUserEmailId))
    for (const body of [mail?.text ?? '', mail?.html ?? '']) {
      expect(body).toContain('Curb Appeal: 5/5')
      expect(body).toContain('Lot: 2/5')
      expect(body).toMatch(/Closets (&|&amp;) Storage: 3\/5/)
      expect(body).toContain('Knowledge: 4/5')
      expect(body).not.toMatch(rawNames)
    }
  })

  it('names the ratings in the feedback shared with the address the listing agent chose', async () => {
    const listing = await makePlannedAgent(t.db)
    const share = `share-${randomUUID().slice(0, 8)}@example.com`
    const oh = await scheduleOpenHouse(t, listing, {
      publishLevel: 'Hosting Myself',
      emailIdForSharingOHFeedback: share,
    })
    const guest = await guestAt(oh.id)
    await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: { openHouseId: oh.id, prospectId: guest.id, guestToken: guest.guestToken, ...ratings },
    })
    const [mail] = await smtp.waitFor((m) => m.to.includes(share))
    expect(mail?.text).toContain(
      'Ratings — Lot: 2/5, Curb Appeal: 5/5, Closets & Storage: 3/5, Knowledge: 4/5',
    )
    expect(mail?.text).not.toMatch(rawNames)
  })
})
