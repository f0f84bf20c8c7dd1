// Where a webhook may point (SSRF): every special-purpose range ipaddr.js knows (IANA's registries:
// loopback, private, CGNAT, link-local, documentation, benchmarking, reserved, multicast, IPv4-mapped
// and -translated IPv6, NAT64, 6to4, Teredo…), IPv6 outside global unicast (2000::/3), IPv4-compatible
// IPv6, and this host's own interface addresses are refused when an endpoint is saved (422 on `url`),
// the first, the second and the last address of each range. Public addresses are accepted.

import os from 'node:os'
import ipaddr from 'ipaddr.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]
type Ranges = Record<string, Range | Range[]>

/** First, second and last address of a range. */
function samples([network, bits]: Range): string[] {
  const bytes = network.toByteArray()
  const last = bytes.map((byte, i) => {
    const hostBits = Math.max(0, Math.min(8, (i + 1) * 8 - bits))
    return byte | ((1 << hostBits) - 1)
  })
  const second = [...bytes]
  if (bits < bytes.length * 8) second[second.length - 1] = (second.at(-1) ?? 0) | 1
  return [bytes, second, last].map((b) => ipaddr.fromByteArray(b).toString())
}

function table(ranges: Ranges): Array<[string, string]> {
  return Object.entries(ranges).flatMap(([name, value]) => {
    const list = (Array.isArray(value[0]) ? value : [value]) as Range[]
    return list.flatMap((range) => samples(range).map((address) => [name, address] as [string, string]))
  })
}

const special = [
  ...table((ipaddr.IPv4.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges),
  ...table((ipaddr.IPv6.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges),
]
const own = Object.values(os.networkInterfaces())
  .flat()
  .flatMap((info) => (info ? [['this host', info.address.replace(/%.*$/, '')] as [string, string]] : []))
const others: Array<[string, string]> = [
  ['IPv4-compatible', '::93.184.216.34'],
  ['IPv4-mapped public', '::ffff:8.8.8.8'],
  ['NAT64 of a public address', '64:ff9b::808:808'],
  ['6to4 of a public address', '2002:808:808::1'],
  ['outside 2000::/3', '4000::1'],
  ['outside 2000::/3', 'e000::1'],
]

const literal = (address: string) => (address.includes(':') ? `[${address}]` : address)

let t: TestApp
let token: string

beforeAll(async () => {
  t = await buildTestApp()
  token = (await makePlannedAgent(t.db)).token
})
afterAll(async () => {
  await t?.close()
})

const save = (url: string) =>
  t.call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token,
    body: { url, events: ['prospect.created'] },
  })

describe('webhook targets', () => {
  it('covers every special range of the library, and this host', () => {
    expect(special.length).toBeGreaterThan(60)
    expect(new Set(special.map(([name]) => name))).toEqual(
      new Set([
        ...Object.keys((ipaddr.IPv4.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges),
        ...Object.keys((ipaddr.IPv6.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges),
      ]),
    )
    expect(own.length).toBeGreaterThan(0)
  })

  it.each([...special, ...own, ...others])('refuses %s: %s', async (_name, address) => {
    const res = await save(`http://${literal(address)}:8080/hook`)
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('VALIDATION')
    expect(res.body.errors).toEqual([
      {
        field: 'url',
        message: 'This address leads to a private or local network; Porchlight only calls public addresses',
      },
    ])
  })

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])(
    'accepts the public address %s',
    async (address) => {
      const res = await save(`https://${literal(address)}/hook`)
      expect(res.status).toBe(201)
    },
  )
})
