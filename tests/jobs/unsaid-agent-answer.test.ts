import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

// "Are you working with a real estate agent?" has three answers (decision 038): a guest who skips it
// is "not said" everywhere, never "No", and is not among the "Leads Without Realtor".

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

async function ok(res: ReturnType<TestApp['call']>, status = 200) {
  const answer = await res
  if (answer.status !== status) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.body
}

/** An open house (hosted by another agent, or by its own) with three guests: yes, no, and skipped. */
async function threeGuests(hostedByAnother = true) {
  const listing = await makePlannedAgent(t.db)
  const host = await makePlannedAgent(t.db)
  const oh = await scheduleOpenHouse(t, listing, hostedByAnother ? {} : { publishLevel: 'Hosting Myself' })
  if (hostedByAnother) {
    await publish(t, listing, oh.id)
    await ok(
      t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, { token: host.token }),
    )
  }
  const answers = { Yolanda: 'true', Norbert: 'false', Sylvie: undefined } as const
  for (const [first, said] of Object.entries(answers)) {
    await ok(
      t.call('POST', '/public/saveProspect', {
        body: guestFields(oh.id, {
          prospectFirstName: first,
          ...(said === undefined ? { workingWithREAgentFlag: null } : { workingWithREAgentFlag: said }),
        }),
      }),
      201,
    )
  }
  return { listing, host, oh }
}

type Row = Record<string, unknown> & { id: number; prospectFirstName: string }
const byName = (rows: Row[], first: string): Row | undefined =>
  rows.find((r) => r.prospectFirstName === first)

describe('a guest who does not say whether it works with an agent', () => {
  it('reads back as null and is counted as "No" nowhere', async () => {
    const { listing, host, oh } = await threeGuests()

    // The API: the visit's prospect says null, not false.
    const list = await ok(
      t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, { token: listing.token }),
    )
    expect(byName(list.data, 'Sylvie')?.workingWithREAgentFlag).toBeNull()
    expect(byName(list.data, 'Norbert')?.workingWithREAgentFlag).toBe(false)
    expect(byName(list.data, 'Yolanda')?.workingWithREAgentFlag).toBe(true)
    const sylvie = byName(list.data, 'Sylvie') as Row
    const details = await ok(
      t.call('GET', `/prospectmgmt/getProspectDetails/${sylvie.id}`, { token: listing.token }),
    )
    expect(details.data.workingWithREAgentFlag).toBeNull()

    // The dashboard statistics (kept by triggers) and the week's overview: one lead without a realtor.
    for (const who of [listing, host]) {
      const stats = await ok(
        t.call('GET', `/openhousemgmt/getDashboardStatistics/${who.agent.id}`, { token: who.token }),
      )
      expect(stats.data.overall.totalVisitedProspects).toBe(3)
      expect(stats.data.overall.totalVisitedProspectsWithoutRealtor).toBe(1)
    }
    const overview = await ok(
      t.call('GET', `/openhousemgmt/getDashboardOverview/${listing.agent.id}?timeZone=UTC`, {
        token: listing.token,
      }),
    )
    expect(overview.data.leadsThisWeek).toMatchObject({ total: 3, withoutRealtor: 1 })

    // The "No realtor" filter and the CSV export (its tags) of the leads' owner, the host at the
    // door: Norbert only.
    const filtered = await ok(
      t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${host.agent.id}?noRealtor=true`, {
        token: host.token,
      }),
    )
    expect(filtered.data.map((p: { prospectFirstName: string }) => p.prospectFirstName)).toEqual(['Norbert'])
    const res = await fetch(`${t.url}/api/prospectmgmt/export/${host.agent.id}.csv?sort=name`, {
      headers: { authorization: `Bearer ${host.token}` },
    })
    const rows = parse(new TextDecoder().decode(await res.arrayBuffer()), {
      columns: true,
      bom: true,
    }) as Array<Record<string, string>>
    const tags = (first: string) => rows.find((r) => r['First Name'] === first)?.Tags ?? ''
    expect(tags('Norbert')).toContain('No Realtor')
    expect(tags('Sylvie')).not.toContain('No Realtor')
    expect(tags('Yolanda')).not.toContain('No Realtor')

    // The seller report: one with an agent, one without, one who did not say.
    const link = await ok(
      t.call('POST', `/openhousemgmt/createSellerReportLink/${oh.id}`, { token: listing.token }),
      201,
    )
    const report = await ok(t.call('GET', `/public/getSellerReport/${link.data.url.split('/seller/')[1]}`))
    expect(report.data.visitors).toMatchObject({ count: 3, withAgent: 1, withoutAgent: 1, agentUnknown: 1 })

    // The hosting report: one lead without a realtor; the CSV leaves the unsaid answer empty.
    await ok(t.call('POST', `/openhousemgmt/sendOpenHouseHostingReport/${oh.id}`, { token: host.token }), 202)
    const [mail] = await smtp.waitFor((m) => m.to.includes(listing.user.porchlightUserEmailId))
    expect(mail?.text).toContain('Attendees: 3. Leads without a realtor: 1.')
    const csv = mail?.raw.attachments.find((a) => a.filename === 'attendees.csv')
    const attendees = parse(csv?.content.toString('utf8') ?? '', { columns: true, bom: true }) as Array<
      Record<string, string>
    >
    const said = Object.fromEntries(attendees.map((a) => [a['First Name'], a['Working With an Agent']]))
    expect(said).toEqual({ Yolanda: 'Yes', Norbert: 'No', Sylvie: '' })
  })

  it('moves the statistics when the agent records the answer later, and back', async () => {
    const { listing, oh } = await threeGuests(false)
    const list = await ok(
      t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, { token: listing.token }),
    )
    const sylvie = byName(list.data, 'Sylvie') as Row
    const without = async () =>
      (
        await ok(
          t.call('GET', `/openhousemgmt/getDashboardStatistics/${listing.agent.id}`, {
            token: listing.token,
          }),
        )
      ).data.overall.totalVisitedProspectsWithoutRealtor
    const save = (flag: string | null) =>
      ok(
        t.call('PATCH', `/prospectmgmt/saveProspect/${sylvie.id}`, {
          token: listing.token,
          body: {
            prospectFirstName: sylvie.prospectFirstName,
            prospectLastName: sylvie.prospectLastName,
            prospectEmailId: sylvie.prospectEmailId,
            prospectPhoneNumber: sylvie.prospectPhoneNumber,
            workingWithREAgentFlag: flag,
          },
        }),
      )
    expect(await without()).toBe(1)
    await save('false')
    expect(await without()).toBe(2)
    await save(null)
    expect(await without()).toBe(1)
  })
})
