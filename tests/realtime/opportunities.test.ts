import { describe, expect, it } from 'vitest'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { collect, nextEvent } from '../support/socket.ts'
import { twoServers } from '../support/two-servers.ts'

const servers = twoServers()
const { socketOf } = servers

describe('live opportunities', () => {
  it('tells an eligible agent of a publish then a claim, and an agent of another firm of neither', async () => {
    const listing = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-LIVE' })
    const sameFirm = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-LIVE' })
    const claimer = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-LIVE' })
    const otherFirm = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-ELSEWHERE' })

    const watcher = await socketOf(servers.b, sameFirm.token)
    const outsider = await socketOf(servers.b, otherFirm.token)
    const outsiderPublished = collect(outsider, 'opportunity.published')
    const outsiderClaimed = collect(outsider, 'opportunity.claimed')

    const oh = await scheduleOpenHouse(servers.a, listing, { publishLevel: 'Market Center' })
    const published = nextEvent(watcher, 'opportunity.published')
    expect((await publish(servers.a, listing, oh.id, 'Market Center')).status).toBe(200)
    expect((await published).data).toEqual({
      openHouseId: oh.id,
      publishLevel: 'Market Center',
      publishLevelId: 'FIRM-LIVE',
    })

    const claimed = nextEvent(watcher, 'opportunity.claimed')
    const res = await servers.a.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${claimer.agent.id}`,
      {
        token: claimer.token,
      },
    )
    expect(res.status).toBe(200)
    const event = await claimed
    expect(event.data).toMatchObject({ openHouseId: oh.id, hostingReAgentId: claimer.agent.id })
    expect(event.data.hostingReAgentName).toContain(claimer.agent.reAgentLastName)

    // Both events have been delivered to the watcher by now; the outsider, on the same server, got neither.
    await new Promise((r) => setTimeout(r, 200))
    expect(outsiderPublished).toEqual([])
    expect(outsiderClaimed).toEqual([])
  })

  it('tells the listing agent its open house is hosted, and everyone offered it when it is withdrawn', async () => {
    const listing = await makePlannedAgent(servers.a.db)
    const host = await makePlannedAgent(servers.a.db)
    const other = await makePlannedAgent(servers.a.db)
    const listingSocket = await socketOf(servers.b, listing.token)
    const otherSocket = await socketOf(servers.a, other.token)
    const oh = await scheduleOpenHouse(servers.a, listing)
    await publish(servers.a, listing, oh.id)

    const hosted = nextEvent(listingSocket, 'opportunity.claimed')
    await servers.a.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect((await hosted).data.hostingReAgentId).toBe(host.agent.id)

    const back = nextEvent(otherSocket, 'opportunity.withdrawn')
    expect(
      (
        await servers.a.call('DELETE', `/openhousemgmt/withdrawToHostOpenHouse/${oh.id}/${host.agent.id}`, {
          token: host.token,
        })
      ).status,
    ).toBe(200)
    expect((await back).data.openHouseId).toBe(oh.id)
  })
})
