import { describe, expect, it } from 'vitest'
import { makePlannedAgent, scheduleFields } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { collect, nextEvent } from '../support/socket.ts'
import { twoServers } from '../support/two-servers.ts'

// Every agent with a screen that may show an open house (a list or its Details dialog) hears when it
// changes: the listing agent, the host and the agents it is offered to; nobody else does.

const servers = twoServers()
const { socketOf } = servers

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

function edit(listing: Agent, oh: { id: number; rePropertyId: number }, overrides: Record<string, unknown>) {
  return servers.a.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
    token: listing.token,
    body: scheduleFields(oh.rePropertyId, overrides),
  })
}

/** Lets every event already sent reach the sockets (all on this machine) before counting absences. */
const settle = () => new Promise((r) => setTimeout(r, 300))

describe('who hears an open house change', () => {
  it('tells the agents it is offered to, then its host, of an edit; never an agent of another firm', async () => {
    const listing = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-VIEW' })
    const offered = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-VIEW' })
    const host = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-VIEW' })
    const outsider = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-AWAY' })
    const offeredSocket = await socketOf(servers.b, offered.token)
    const hostSocket = await socketOf(servers.a, host.token)
    const outsiderHeard = collect(await socketOf(servers.b, outsider.token), 'openHouse.updated')

    const oh = await scheduleOpenHouse(servers.a, listing, { publishLevel: 'Market Center' })
    expect((await publish(servers.a, listing, oh.id, 'Market Center')).status).toBe(200)

    const toOffered = nextEvent(offeredSocket, 'openHouse.updated')
    expect((await edit(listing, oh, { publishLevel: 'Market Center', mlsId: 'MLS-1' })).status).toBe(200)
    expect((await toOffered).data).toEqual({ openHouseId: oh.id })

    const claim = await servers.a.call(
      'PATCH',
      `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`,
      {
        token: host.token,
      },
    )
    expect(claim.status).toBe(200)
    await settle()
    const toHost = nextEvent(hostSocket, 'openHouse.updated')
    expect(
      (await edit(listing, oh, { publishLevel: 'Market Center', openHouseInstructions: 'Ring twice.' }))
        .status,
    ).toBe(200)
    expect((await toHost).data).toEqual({ openHouseId: oh.id })

    await settle()
    expect(outsiderHeard).toEqual([])
  })

  it('tells the host that withdrew, on its other screens, and the agents it is offered to again', async () => {
    const listing = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-BACK' })
    const host = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-BACK' })
    const oh = await scheduleOpenHouse(servers.a, listing, { publishLevel: 'Market Center' })
    expect((await publish(servers.a, listing, oh.id, 'Market Center')).status).toBe(200)
    await servers.a.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })

    const otherTab = await socketOf(servers.b, host.token)
    const heard = nextEvent(otherTab, 'opportunity.withdrawn')
    const res = await servers.a.call(
      'DELETE',
      `/openhousemgmt/withdrawToHostOpenHouse/${oh.id}/${host.agent.id}`,
      {
        token: host.token,
      },
    )
    expect(res.status).toBe(200)
    expect((await heard).data.openHouseId).toBe(oh.id)
  })

  it('tells the team it was offered to when the listing agent moves the offer to another level', async () => {
    const listing = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-MOVE' })
    const firmmate = await makePlannedAgent(servers.a.db, { brokerFirmLicense: 'FIRM-MOVE' })
    const firmmateSocket = await socketOf(servers.b, firmmate.token)
    const oh = await scheduleOpenHouse(servers.a, listing, { publishLevel: 'Market Center' })
    expect((await publish(servers.a, listing, oh.id, 'Market Center')).status).toBe(200)

    // Moved to Hosting Myself: the firm's Search Open Houses must drop it, so the firm hears it.
    const gone = nextEvent(firmmateSocket, 'openHouse.updated')
    expect((await edit(listing, oh, { publishLevel: 'Hosting Myself' })).status).toBe(200)
    expect((await gone).data).toEqual({ openHouseId: oh.id })
    const available = await servers.a.call(
      'GET',
      `/openhousemgmt/getAvailableToHostOH/${firmmate.agent.id}`,
      {
        token: firmmate.token,
      },
    )
    expect(available.body.data.map((x: { id: number }) => x.id)).not.toContain(oh.id)
  })
})
