import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleFor, scheduleOpenHouse } from '../support/open-houses.ts'
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

const emailOf = (a: Awaited<ReturnType<typeof makePlannedAgent>>) => a.user.porchlightUserEmailId
const settle = () => new Promise((r) => setTimeout(r, 700))

describe('team publish invitations', () => {
  it('mails each of five members once, and the first of two simultaneous accepts hosts', async () => {
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: 'FIRM-INV' })
    const team = await t.db
      .insertInto('reTeam')
      .values({
        reTeamName: 'Invite Crew',
        teamType: 'Real Estate Team',
        reTeamLeadId: lead.agent.id,
        createdByReAgentId: lead.agent.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const members = []
    for (let i = 0; i < 5; i++) {
      const m = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-INV', firstName: `Member${i}` })
      await t.db
        .insertInto('reTeamMember')
        .values({
          reTeamId: team.id,
          reAgentId: m.agent.id,
          addedByReAgentId: lead.agent.id,
          invitationStatus: 'accepted',
        })
        .execute()
      members.push(m)
    }
    const listing = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-INV' })
    await t.db
      .insertInto('reTeamMember')
      .values({
        reTeamId: team.id,
        reAgentId: listing.agent.id,
        addedByReAgentId: lead.agent.id,
        invitationStatus: 'accepted',
      })
      .execute()
    // The lead schedules for its teammate and offers it to the lead's team.
    const oh = await scheduleFor(t, lead, listing.agent.id, { publishLevel: 'Real Estate Team' })
    const res = await publish(t, lead, oh.id, 'Real Estate Team')
    expect(res.status).toBe(403) // the path names the listing agent, not the lead
    const ok = await t.call(
      'POST',
      `/openhousemgmt/publishOpenHouseOpportunity/${oh.id}/${listing.agent.id}/Real%20Estate%20Team`,
      { token: lead.token },
    )
    expect(ok.status).toBe(200)
    expect(ok.body.data.publishLevelId).toBe(String(team.id))

    const invited = new Set(members.map(emailOf))
    const isInvite = (m: { subject: string }) => m.subject.startsWith('Open house to host')
    const mails = await smtp.waitFor(isInvite, 5)
    await settle()
    expect(smtp.received.filter(isInvite)).toHaveLength(5)
    expect(new Set(mails.map((m) => m.to[0]))).toEqual(invited)
    expect(mails[0]?.text).toContain(`/openhouses?activeSection=searchOH&openHouseId=${oh.id}`)

    const [first, second] = members
    const answers = await Promise.all(
      [first, second].map((m) =>
        t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${m?.agent.id}`, {
          token: m?.token,
        }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
  })
})

describe('guest and feedback mails', () => {
  const guest = (openHouseId: number, overrides: Record<string, unknown> = {}) => ({
    prospectFirstName: 'Robin',
    prospectLastName: 'Guest',
    prospectEmailId: `robin-${randomUUID().slice(0, 8)}@example.com`,
    prospectPhoneNumber: '404 555 0177',
    openHouseId,
    clientRequestId: randomUUID(),
    emailConsent: 'true',
    smsConsent: 'false',
    consentText: 'The agent may email me about this home.',
    ...overrides,
  })

  it('thanks a guest who agreed to email, once per visit, and nobody else', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const body = guest(oh.id)
    expect((await t.call('POST', '/public/saveProspect', { body })).status).toBe(201)
    await t.call('POST', '/public/saveProspect', { body })
    const silent = guest(oh.id, { emailConsent: 'false', consentText: null })
    await t.call('POST', '/public/saveProspect', { body: silent })
    const [mail] = await smtp.waitFor((m) => m.to.includes(body.prospectEmailId))
    expect(mail?.subject).toMatch(/^Thank you for visiting .*Lantern Way/)
    expect(mail?.text).toContain('Hi Robin')
    await settle()
    expect(smtp.received.filter((m) => m.to.includes(body.prospectEmailId))).toHaveLength(1)
    expect(smtp.received.filter((m) => m.to.includes(silent.prospectEmailId))).toHaveLength(0)
  })

  it('repeats only a plain first name in the thank-you, never a sentence or a link a visitor typed', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const cases = [
      ['Claim your prize at http://evil.example', 'Hi there,'],
      ['evil.example', 'Hi there,'],
      ['<b>Win</b>', 'Hi there,'],
      ['Zoë-Anne', 'Hi Zoë-Anne,'],
      ['J.R.', 'Hi J.R.,'],
      ['Mary Ann', 'Hi Mary Ann,'],
      ['Act now to win', 'Hi there,'],
    ] as const
    for (const [firstName, greeting] of cases) {
      const body = guest(oh.id, { prospectFirstName: firstName })
      expect((await t.call('POST', '/public/saveProspect', { body })).status).toBe(201)
      const [mail] = await smtp.waitFor((m) => m.to.includes(body.prospectEmailId))
      expect(mail?.text).toContain(greeting)
      expect(mail?.text).not.toMatch(/evil|prize|<b>|win/)
    }
  })

  it('shares new feedback with the address the listing agent chose', async () => {
    const listing = await makePlannedAgent(t.db)
    const share = `share-${randomUUID().slice(0, 8)}@example.com`
    const oh = await scheduleOpenHouse(t, listing, {
      publishLevel: 'Hosting Myself',
      emailIdForSharingOHFeedback: share,
    })
    const visitor = await t.call('POST', '/public/saveProspect', {
      body: guest(oh.id, { emailConsent: 'false', consentText: null }),
    })
    await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: {
        openHouseId: oh.id,
        prospectId: visitor.body.data.id,
        guestToken: visitor.body.data.guestToken,
        kitchen: 4,
        homePrice: 2,
        feedbackText: 'Priced high',
      },
    })
    const [mail] = await smtp.waitFor((m) => m.to.includes(share))
    expect(mail?.subject).toMatch(/New feedback/)
    expect(mail?.text).toContain('Kitchen: 4/5')
    expect(mail?.text).toContain('Home Price: 2/5')
    expect(mail?.text).toContain('Priced high')
  })
})
